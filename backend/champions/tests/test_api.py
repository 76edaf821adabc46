"""The champions API through HTTP: becoming a champion, their page, pledging through it, their circle,
recording a returned card."""

import pytest

from champions.models import Attribution, Champion
from champions.tests.support import pay_bill

pytestmark = pytest.mark.django_db


def test_a_member_becomes_a_champion_and_visitors_pledge_on_their_page(
    campaign, member_client, visitor_client, django_assert_max_num_queries
):
    made = member_client.post(
        f"/api/campaigns/{campaign.pk}/champions", {"goal": 20_000, "appeal": "For our roof, from Kiambu"}
    )
    assert made.status_code == 201, made.content
    code = made.json()["code"]
    assert made.json()["card_number"] == 1 and made.json()["page_url"].endswith(f"/campaign/{campaign.pk}/c/{code}")

    pledged = visitor_client.post(
        f"/api/campaigns/{campaign.pk}/champions/{code}/pledges",
        {
            "campaign_id": campaign.pk,
            "amount": 2_500,
            "name": "Kamau Njoroge",
            "email": "kamau@example.com",
            "phone": "0712000777",
        },
        REMOTE_ADDR="127.0.0.61",
    )
    assert pledged.status_code == 201, pledged.content
    pay_bill(code, 400, "SLK8AP0001")

    with django_assert_max_num_queries(6):
        page = visitor_client.get(f"/api/campaigns/{campaign.pk}/champions/{code.lower()}")
    assert page.status_code == 200
    body = page.json()
    assert (body["name"], body["raised"], body["pledged"], body["gifts"]) == ("Amina Hassan", 400, 2_500, 1)
    assert body["payment_instructions"][0]["lines"][1]["value"] == code
    assert Attribution.objects.filter(champion__code=code).count() == 2

    circle = member_client.get(f"/api/campaigns/{campaign.pk}/champions/{code}/circle")
    assert circle.status_code == 200
    assert [(g["name"], g["kind"], g["owed"]) for g in circle.json()["gifts"]] == [
        ("", "gift", 0),
        ("Kamau Njoroge", "pledge", 2_500),
    ]
    assert circle.json()["owed"] == 2_500
    assert visitor_client.get(f"/api/campaigns/{campaign.pk}/champions/{code}/circle").status_code == 401
    assert visitor_client.get(f"/api/campaigns/{campaign.pk}/champions/{code}/qr.svg").status_code == 200


def test_signing_up_twice_and_unknown_champions_answer_the_one_error_shape(campaign, member_client, visitor_client):
    assert member_client.post(f"/api/campaigns/{campaign.pk}/champions", {"goal": 1_000}).status_code == 201
    again = member_client.post(f"/api/campaigns/{campaign.pk}/champions", {"goal": 1_000})
    assert again.status_code == 400 and again.json()["code"] == "already_champion"
    missing = visitor_client.get(f"/api/campaigns/{campaign.pk}/champions/ZZZZZZ")
    assert missing.status_code == 404 and missing.json()["code"] == "champion_not_found"
    assert visitor_client.post(f"/api/campaigns/{campaign.pk}/champions", {"goal": 1_000}).status_code == 401


def test_the_desk_records_a_returned_card_once(campaign, member_client, organizer_client):
    code = member_client.post(f"/api/campaigns/{campaign.pk}/champions", {"goal": 5_000}).json()["code"]
    number = Champion.objects.get(code=code).card.number
    body = {"cash_total": 1_200, "gifts": [{"kind": "cash", "amount": 700, "name": "Mama Njeri"}]}

    returned = organizer_client.post(f"/api/campaigns/{campaign.pk}/harambee-cards/{number}/return", body)
    again = organizer_client.post(f"/api/campaigns/{campaign.pk}/harambee-cards/{number}/return", body)

    assert returned.status_code == 200 and returned.json()["returned_at"]
    assert again.status_code == 400 and again.json()["code"] == "card_already_returned"
    page = organizer_client.get(f"/api/campaigns/{campaign.pk}/champions/{code}").json()
    assert page["raised"] == 1_200
    assert member_client.post(f"/api/campaigns/{campaign.pk}/harambee-cards/{number}/return", body).status_code == 403
