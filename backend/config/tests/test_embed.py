"""The embed (config/embed.py): a campaign's figures and pledge form in another website's frame."""

import gzip
import re

import pytest
from django.core import signing
from django.test import Client
from time_machine import travel

from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from config.embed import EMBED_FORM_SECONDS, FORM_TOKEN_SALT, LOADER_JS
from organizations.models import EmbedOrigin
from pledges.models import Pledge

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="token" value="([^"]+)"')
FILLED = {"name": "Achieng Odhiambo", "email": "achieng@example.com", "phone": "0712 345 678", "amount": "5,000"}
HOST = "https://www.stpauls.example"


@pytest.fixture
def campaign(db):
    campaign = CampaignFactory.create(title="Church Roof Repair", goal=200_000)
    EmbedOrigin.objects.create(organization=campaign.organization, origin=HOST)
    return campaign


def browser(address: str) -> Client:
    """A browser in a third-party frame: no cookies (blocked), CSRF checked as in production."""
    return Client(enforce_csrf_checks=True, REMOTE_ADDR=address)


def csp_of(response) -> dict[str, str]:
    return {
        part.strip().split(" ", 1)[0]: part.strip().split(" ", 1)[1]
        for part in response["Content-Security-Policy"].split(";")
        if part.strip()
    }


def token_of(response) -> str:
    found = TOKEN.search(response.content.decode())
    assert found is not None
    return found[1]


def test_the_embed_shows_the_campaigns_cached_figures_and_a_pledge_form(campaign, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):  # the campaign's public answer (first read: as the API's) and its websites
        response = browser("127.0.0.7").get(f"/embed/campaign/{campaign.pk}")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Church Roof Repair" in html
    assert "Ksh 200,000" in html
    assert 'method="post"' in html and TOKEN.search(html)
    assert f"/campaign/{campaign.pk}/donate" in html  # Give opens the donate page
    assert '<script type="module"' not in html  # no React bundle
    assert response["Cache-Control"] == "private, no-store"


def test_a_second_view_reads_the_campaign_from_its_cached_answer(campaign, django_assert_max_num_queries):
    browser("127.0.0.7").get(f"/embed/campaign/{campaign.pk}")
    with django_assert_max_num_queries(1):  # only the registered websites
        browser("127.0.0.7").get(f"/embed/campaign/{campaign.pk}")


def test_only_the_organizations_registered_websites_may_frame_the_embed(campaign):
    response = browser("127.0.0.7").get(f"/embed/campaign/{campaign.pk}")
    assert csp_of(response)["frame-ancestors"] == HOST
    assert "X-Frame-Options" not in response


def test_an_embed_with_no_registered_website_may_be_framed_by_none(db):
    campaign = CampaignFactory.create()
    response = browser("127.0.0.7").get(f"/embed/campaign/{campaign.pk}")
    assert csp_of(response)["frame-ancestors"] == "'none'"


@pytest.mark.parametrize(
    "path", ["/", "/campaign/{id}", "/campaign/{id}/donate", "/dashboard", "/signin", "/api/auth/session"]
)
def test_every_other_page_may_be_framed_by_none(campaign, path, settings, tmp_path):
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>'
    )
    settings.FRONTEND_DIST = tmp_path
    response = browser("127.0.0.7").get(path.format(id=campaign.pk))
    assert response["X-Frame-Options"] == "DENY"
    assert csp_of(response)["frame-ancestors"] == "'none'"


def test_the_embed_speaks_the_language_asked_for_else_the_browsers(campaign):
    asked = browser("127.0.0.7").get(f"/embed/campaign/{campaign.pk}?lang=sw", HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="sw">' in asked.content.decode()
    assert "Ahadi" in asked.content.decode()
    browsers = browser("127.0.0.7").get(f"/embed/campaign/{campaign.pk}", HTTP_ACCEPT_LANGUAGE="sw")
    assert '<html lang="sw">' in browsers.content.decode()
    english = browser("127.0.0.7").get(f"/embed/campaign/{campaign.pk}?lang=fr", HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="en">' in english.content.decode()


def test_a_pledge_posted_from_the_frame_without_any_cookie_is_recorded(campaign):
    giver = browser("127.0.0.8")
    token = token_of(giver.get(f"/embed/campaign/{campaign.pk}"))
    response = giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "token": token}, HTTP_ORIGIN="http://testserver")
    pledge = Pledge.objects.get()
    assert response.status_code == 201
    assert pledge.amount == 5000 and pledge.user is None
    assert pledge.code in response.content.decode()
    assert f"/pledges/{pledge.code}" in response.content.decode()  # Pay now, in a new window
    assert csp_of(response)["frame-ancestors"] == HOST


def test_each_render_has_a_form_token_of_its_own(campaign):
    giver = browser("127.0.0.13")
    assert token_of(giver.get(f"/embed/campaign/{campaign.pk}")) != token_of(
        giver.get(f"/embed/campaign/{campaign.pk}")
    )


def test_a_form_sent_twice_records_one_pledge(campaign):
    giver = browser("127.0.0.13")
    token = token_of(giver.get(f"/embed/campaign/{campaign.pk}"))
    assert giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "token": token}).status_code == 201
    again = giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "token": token})
    assert again.status_code == 409
    assert Pledge.objects.count() == 1


def test_a_refused_form_corrected_is_taken_with_the_same_token(campaign):
    giver = browser("127.0.0.14")
    token = token_of(giver.get(f"/embed/campaign/{campaign.pk}"))
    assert giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "phone": "1", "token": token}).status_code == 422
    assert giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "token": token}).status_code == 201


def test_a_pledge_without_the_forms_token_is_refused(campaign):
    response = browser("127.0.0.9").post(f"/embed/campaign/{campaign.pk}", FILLED)
    assert response.status_code == 403
    assert not Pledge.objects.exists()


def test_a_token_of_another_campaign_is_refused(campaign):
    other = CampaignFactory.create()
    token = signing.dumps({"campaign": other.pk}, salt=FORM_TOKEN_SALT)
    response = browser("127.0.0.9").post(f"/embed/campaign/{campaign.pk}", {**FILLED, "token": token})
    assert response.status_code == 403
    assert not Pledge.objects.exists()


def test_an_expired_token_is_refused_and_the_form_comes_back_as_typed(campaign):
    with travel("2026-03-01 10:00:00+03:00", tick=False):
        token = signing.dumps({"campaign": campaign.pk}, salt=FORM_TOKEN_SALT)
    with travel("2026-03-01 10:00:00+03:00", tick=False) as traveller:
        traveller.shift(EMBED_FORM_SECONDS + 1)
        response = browser("127.0.0.9").post(f"/embed/campaign/{campaign.pk}", {**FILLED, "token": token})
    assert response.status_code == 403
    assert "Achieng Odhiambo" in response.content.decode()
    assert not Pledge.objects.exists()


def test_a_form_posted_from_another_website_is_refused(campaign):
    giver = browser("127.0.0.10")
    token = token_of(giver.get(f"/embed/campaign/{campaign.pk}"))
    response = giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "token": token}, HTTP_ORIGIN=HOST)
    assert response.status_code == 403
    assert not Pledge.objects.exists()


def test_a_refused_pledge_comes_back_with_the_services_message(campaign):
    giver = browser("127.0.0.11")
    token = token_of(giver.get(f"/embed/campaign/{campaign.pk}"))
    response = giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "phone": "12", "token": token})
    assert response.status_code == 422
    assert 'aria-invalid="true"' in response.content.decode()
    assert "Achieng Odhiambo" in response.content.decode()


def test_the_embeds_pledges_share_the_pledge_limit_of_their_address(campaign, settings):
    settings.RATE_LIMIT_PLEDGE = (1, 3600)
    giver = browser("127.0.0.12")
    token = token_of(giver.get(f"/embed/campaign/{campaign.pk}"))
    assert giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "token": token}).status_code == 201
    token = token_of(giver.get(f"/embed/campaign/{campaign.pk}"))
    again = giver.post(f"/embed/campaign/{campaign.pk}", {**FILLED, "email": "b@example.com", "token": token})
    assert again.status_code == 429
    assert again["Retry-After"]


def test_a_campaign_not_open_shows_no_form_and_a_hidden_one_is_not_found(db):
    closed = CampaignFactory.create(status=CampaignStatus.CLOSED)
    pending = CampaignFactory.create(status=CampaignStatus.PENDING)
    assert browser("127.0.0.7").get(f"/embed/campaign/{pending.pk}").status_code == 404
    response = browser("127.0.0.7").get(f"/embed/campaign/{closed.pk}")
    assert response.status_code in (200, 404)
    assert 'method="post"' not in response.content.decode()


def test_the_loader_is_a_small_public_script():
    response = Client().get("/embed.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "public, max-age=3600"
    assert len(gzip.compress(response.content)) < 1024
    assert response.content.decode() == LOADER_JS
