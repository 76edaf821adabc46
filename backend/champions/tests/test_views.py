"""A champion's page is plain server-rendered HTML: link preview, progress, paybill and account, QR."""

import pytest

from champions.tests.support import a_champion, pay_bill

pytestmark = pytest.mark.django_db


def test_a_champions_page_is_server_rendered_with_its_preview_paybill_and_qr(campaign, member, client):
    champion = a_champion(campaign, member, goal=10_000, appeal="Help us finish the roof")
    pay_bill(champion.code, 2_500, "SLK9VW0001")

    answer = client.get(f"/campaign/{campaign.pk}/c/{champion.code}")

    html = answer.content.decode()
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/html")
    assert '<meta property="og:title" content="Amina Hassan raises for Church Roof Repair">' in html
    assert "Help us finish the roof" in html and "Ksh 2,500" in html and 'aria-valuenow="25"' in html
    assert "600100" in html and champion.code in html and "<svg" in html
    assert client.get(f"/campaign/{campaign.pk}/c/ZZZZZZ").status_code == 404


def test_a_champions_page_links_to_the_pledge_form_that_pledges_through_them(campaign, member, client):
    champion = a_champion(campaign, member)

    html = client.get(f"/campaign/{campaign.pk}/c/{champion.code}").content.decode()

    assert f'href="/campaign/{campaign.pk}/pledge?champion={champion.code}">Pledge through Amina Hassan</a>' in html
