"""The champions API through HTTP: becoming a champion, their page, pledging through it, their circle,
recording a returned card."""

from datetime import timedelta

import pytest
from django.utils import timezone

from champions.models import Attribution, Champion
from champions.tests.support import a_champion, pay_bill

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


def test_a_member_finds_their_own_championship_and_others_have_none(campaign, member_client, organizer_client):
    assert member_client.get(f"/api/campaigns/{campaign.pk}/my-champion").json()["code"] == "champion_not_found"
    made = member_client.post(f"/api/campaigns/{campaign.pk}/champions", {"goal": 5_000}).json()

    mine = member_client.get(f"/api/campaigns/{campaign.pk}/my-champion")

    assert (mine.status_code, mine.json()["code"]) == (200, made["code"])
    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/my-champion").status_code == 404


def test_the_roster_names_every_champion_with_their_figures_and_sums_each_team(
    campaign, member, member_client, organizer, organizer_client
):
    choir = organizer_client.post(f"/api/campaigns/{campaign.pk}/champion-teams", {"name": "Choir", "goal": 90_000})
    team_id = choir.json()["id"]
    hidden = a_champion(campaign, member, goal=10_000, on_leaderboard=False, team_id=team_id)
    named = a_champion(campaign, organizer, goal=20_000, team_id=team_id)
    pay_bill(hidden.code, 700, "SLK8RS0001")
    pay_bill(named.code, 300, "SLK8RS0002")

    roster = organizer_client.get(f"/api/campaigns/{campaign.pk}/champion-roster")

    assert roster.status_code == 200, roster.content
    body = roster.json()
    assert [(c["name"], c["on_leaderboard"], c["raised"], c["card_returned"]) for c in body["champions"]] == [
        ("Amina Hassan", False, 700, False),
        ("Grace Wanjiku", True, 300, False),
    ]
    assert [(t["name"], t["raised"], t["champions"]) for t in body["teams"]] == [("Choir", 1_000, 2)]
    assert member_client.get(f"/api/campaigns/{campaign.pk}/champion-roster").status_code == 403


def test_a_pledge_through_a_champion_keeps_the_instalment_plan_its_pledger_chose(campaign, member, visitor_client):
    champion = a_champion(campaign, member)
    first_due_on = (timezone.localdate() + timedelta(days=1)).isoformat()

    pledged = visitor_client.post(
        f"/api/campaigns/{campaign.pk}/champions/{champion.code}/pledges",
        {
            "campaign_id": campaign.pk,
            "amount": 3_000,
            "name": "Kamau Njoroge",
            "email": "kamau@example.com",
            "phone": "0712000778",
            "plan": {"instalment": 1_000, "frequency": "weekly", "first_due_on": first_due_on},
        },
        REMOTE_ADDR="127.0.0.62",
    )

    assert pledged.status_code == 201, pledged.content
    pledge = Attribution.objects.get(champion=champion).pledge
    assert pledge is not None and pledge.plan is not None and pledge.plan.instalment == 1_000
