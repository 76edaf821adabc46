"""Pledging, the public pledge lists and the campaign page's arrays, as each viewer sees them."""

import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from campaigns.models import Campaign, CampaignStatus
from campaigns.tests.factories import CampaignFactory, link_account
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import TEST_PAYBILL, CollectionAccountFactory
from payments.models import Payment
from pledges import codes
from pledges.models import Pledge, PledgeStatus
from pledges.services import pledge_payment_record
from pledges.tests.factories import PledgeFactory, make_pledge, paid_donation

pytestmark = pytest.mark.django_db

REQUIRED = "Please fill in all required fields"
PHONE_RULE = "Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)"
HIDDEN = {"email": "hidden@anonymous.invalid", "phone": "Hidden"}
MANAGER_ONLY = (
    "code",
    "status",
    "payment_confirmed",
    "paid_amount",
    "remaining_amount",
    "overpaid_amount",
    "confirmed_at",
    "confirmed_by",
)


def pledge(client, campaign, **fields):
    body = {
        "campaign_id": campaign.pk,
        "amount": 5000,
        "name": "Achieng Odhiambo",
        "email": "achieng@example.com",
        "phone": "0712 345 678",
        "is_anonymous": False,
        **fields,
    }
    return client.post("/api/pledges", body)


# POST /api/pledges ------------------------------------------------------------------------


def test_a_visitor_pledges_and_gets_a_code_and_how_to_pay_it(visitor_client, campaign):
    for kind, details in (
        ("bank", {"bank_name": "KCB", "account_name": "Church", "account_number": "1100"}),
        ("cash", {"location": "Church office"}),
    ):
        link_account(
            campaign,
            CollectionAccountFactory.create(
                organization=campaign.organization, kind=kind, paybill_number="", is_default=False, **details
            ),
        )

    response = pledge(visitor_client, campaign, is_anonymous=True)

    assert response.status_code == 201, response.content
    body = response.json()
    saved = Pledge.objects.get()
    assert (saved.phone, saved.amount, saved.is_anonymous, saved.status) == ("+254712345678", 5000, True, "pending")
    assert saved.channel == "web"
    assert body["code"] == saved.code and codes.is_valid_code(saved.code)
    assert body | {"payment_instructions": None, "created_at": None} == {
        "id": saved.pk,
        "code": saved.code,
        "name": "Achieng Odhiambo",
        "amount": 5000,
        "is_anonymous": True,
        "status": "pending",
        "paid_amount": 0,
        "remaining_amount": 5000,
        "amount_due": 5000,
        "overpaid_amount": 0,
        "campaign_id": campaign.pk,
        "campaign_title": "Church Roof Repair",
        "deadline_date": campaign.end_date.isoformat(),
        "payment_instructions": None,
        "stk_push_available": True,
        "airtel_push_available": False,
        "airtel_default": False,
        "phone_hint": "+2547•••••678",
        "created_at": None,
        "plan": None,
        "plan_latest_end": campaign.end_date.isoformat(),
        "standing_order_available": False,
    }
    paybill, bank, cash = body["payment_instructions"]
    # The church's own connected paybill, first as the campaign lists its accounts; never Harambee's.
    assert paybill == {
        "method": "paybill",
        "label": "M-Pesa Paybill",
        "lines": [
            {"label": "Business number", "value": TEST_PAYBILL},
            {"label": "Account number", "value": saved.code},
        ],
        "summary": f"Paybill {TEST_PAYBILL}, account {saved.code}",
        "matched_automatically": True,
        "note": f"Use your pledge code {saved.code} as the account number, so your payment is matched to your pledge.",
    }
    assert settings.MPESA_SHORTCODE not in json.dumps(body)
    assert bank["lines"][-1] == {"label": "Reference", "value": saved.code}
    assert not bank["matched_automatically"] and "treasurer" in bank["note"]
    assert cash["lines"] == [{"label": "Where", "value": "Church office"}]
    campaign.refresh_from_db()
    assert (campaign.pledged_total, campaign.raised_total, campaign.donor_count) == (5000, 0, 0)


def test_without_a_connected_account_the_receipt_offers_no_pin_prompt(visitor_client, campaign):
    CollectionAccount.objects.update(mpesa_connected_at=None)

    body = pledge(visitor_client, campaign).json()

    assert body["stk_push_available"] is False
    assert [i["matched_automatically"] for i in body["payment_instructions"]] == [False]
    answer = visitor_client.post(
        f"/api/pledges/{body['code']}/stk-push", {"phone": "0712345678", "idempotency_key": "no-prompt-attempt-1"}
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "stk_unavailable"), answer.content
    assert not Payment.objects.exists()


def test_the_derived_fields_the_client_sends_are_ignored(visitor_client, campaign):
    response = pledge(
        visitor_client,
        campaign,
        timestamp="2020-01-01T00:00:00Z",
        campaignTitle="Something else",
        deadlineDate="1999-12-31",
        paymentMethod="Bank Transfer",
        paymentInstructions="Pay me instead",
    )

    assert response.status_code == 201
    assert response.json()["campaign_title"] == "Church Roof Repair"
    assert response.json()["deadline_date"] == campaign.end_date.isoformat()


def test_missing_fields_answer_please_fill_in_all_required_fields(visitor_client, campaign):
    response = visitor_client.post("/api/pledges", {"campaign_id": campaign.pk, "name": "  ", "phone": "0712345678"})

    assert response.status_code == 422
    assert response.json() == {
        "detail": REQUIRED,
        "code": "invalid",
        "field_errors": {"name": "Name is required", "email": "Email is required", "amount": "Amount is required"},
    }
    assert not Pledge.objects.exists()


def test_a_name_of_invisible_characters_is_no_name(visitor_client, campaign):
    response = pledge(visitor_client, campaign, name="\u200b\u200d\u2060")

    assert response.status_code == 422
    assert response.json()["field_errors"] == {"name": "Name is required"}


def test_a_name_is_stored_without_invisible_characters(visitor_client, campaign):
    pledge(visitor_client, campaign, name="  \uff37anjiru\u200b \t Kamau\u202e ")

    assert Pledge.objects.get().name == "Wanjiru Kamau"


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"phone": "0812345678"}, "phone", PHONE_RULE),
        ({"phone": "+1 202 555 0101"}, "phone", PHONE_RULE),
        ({"email": "not-an-email"}, "email", "Please enter a valid email address"),
        ({"amount": 0}, "amount", "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000."),
        ({"amount": -5}, "amount", "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000."),
        ({"amount": 12.5}, "amount", "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000."),
        ({"amount": 2_000_000_000}, "amount", "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000."),
    ],
    ids=["not-kenyan", "foreign", "email", "zero", "negative", "fraction", "too-big"],
)
def test_invalid_fields_are_refused_with_their_message(visitor_client, campaign, fields, field, message):
    response = pledge(visitor_client, campaign, **fields)

    assert response.status_code == 422
    assert response.json()["detail"] == "Please correct the errors below"
    assert response.json()["field_errors"] == {field: message}
    assert not Pledge.objects.exists()


def test_an_amount_in_whole_shillings_written_as_a_decimal_is_accepted(visitor_client, campaign):
    assert pledge(visitor_client, campaign, amount=1.0).json()["amount"] == 1


@pytest.mark.parametrize(
    ("viewer", "status", "days", "answer", "message"),
    [
        (
            "organizer",
            CampaignStatus.PENDING,
            30,
            400,
            "This campaign is not active yet, so it is not accepting pledges.",
        ),
        ("organizer", CampaignStatus.CLOSED, 30, 400, "This campaign is closed and no longer accepts pledges."),
        ("visitor", CampaignStatus.PENDING, 30, 404, "Campaign not found"),
        ("visitor", CampaignStatus.CLOSED, 30, 400, "This campaign is closed and no longer accepts pledges."),
        ("visitor", CampaignStatus.ACTIVE, -1, 400, "This campaign ended on {date} and no longer accepts pledges."),
    ],
    ids=["pending", "closed", "pending-hidden", "closed-public", "ended"],
)
def test_pledges_to_campaigns_that_are_not_open_are_refused(clients, organizer, viewer, status, days, answer, message):
    end_date = timezone.localdate() + timedelta(days=days)
    campaign = CampaignFactory.create(organizer=organizer, status=status, end_date=end_date)

    response = pledge(clients[viewer], campaign)

    assert response.status_code == answer
    assert response.json()["detail"] == message.format(date=f"{end_date.day} {end_date:%B %Y}")
    assert not Pledge.objects.exists()
    campaign.refresh_from_db()
    assert campaign.pledged_total == 0


def test_a_campaign_takes_pledges_on_its_last_day(visitor_client, organizer):
    campaign = CampaignFactory.create(organizer=organizer, end_date=timezone.localdate())

    assert pledge(visitor_client, campaign).status_code == 201


def test_an_unknown_campaign_is_404(visitor_client):
    response = visitor_client.post("/api/pledges", {"campaign_id": 999_999, "amount": 5})

    assert (response.status_code, response.json()["detail"]) == (404, "Campaign not found")


def test_pledging_is_rate_limited_per_address(visitor_client, campaign, settings):
    settings.RATE_LIMIT_PLEDGE = (3, 600)

    answers = [pledge(visitor_client, campaign).status_code for _ in range(4)]

    assert answers == [201, 201, 201, 429]
    assert Pledge.objects.count() == 3


# GET /api/pledges/{code} ----------------------------------------------------------------


def test_the_pledger_finds_their_pledge_by_its_code_in_any_case(visitor_client, campaign):
    created = pledge(visitor_client, campaign).json()

    response = visitor_client.get(f"/api/pledges/{created['code'].lower()}")

    assert response.status_code == 200
    assert response.json() == created
    assert "achieng@example.com" not in response.content.decode()


def test_an_unknown_code_is_404(visitor_client):
    response = visitor_client.get("/api/pledges/ZZZZZZZ")

    assert (response.status_code, response.json()["detail"]) == (404, "Pledge not found.")


# GET /api/pledges?campaign_id= and the campaign page ----------------------------------------


@pytest.fixture
def pledges(campaign, organizer):
    """An anonymous and a named pledge, the named one partly paid, made as pledgers make them."""
    named = make_pledge(campaign, amount=3000, name="Kamau Njoroge", phone="0722000111")
    anonymous = make_pledge(campaign, amount=7000, name="Secret Giver", phone="0733000222", anonymous=True)
    pledge_payment_record(pledge_id=named.pk, user=organizer, amount=1000, method="cash", note="", reference="")
    return {"named": named, "anonymous": anonymous}


def expected_public(name):
    return {"name": name, **HIDDEN, **dict.fromkeys(MANAGER_ONLY), "details_visible": False}


@pytest.mark.parametrize("viewer", ["visitor", "member"])
def test_others_see_names_only_and_anonymous_pledges_as_anonymous(clients, viewer, campaign, pledges):
    response = clients[viewer].get(f"/api/pledges?campaign_id={campaign.pk}")

    assert response.status_code == 200
    assert response["X-Total-Count"] == "2"
    anonymous, named = response.json()
    assert anonymous | expected_public("Anonymous") == anonymous
    assert named | expected_public("Kamau Njoroge") == named
    assert (anonymous["amount"], anonymous["is_anonymous"], named["amount"]) == (7000, True, 3000)
    content = response.content.decode()
    for secret in ("Secret Giver", "secret@example.com", "+254733000222", "kamau@example.com", "+254722000111"):
        assert secret not in content
    for pledge_row in pledges.values():
        assert pledge_row.code not in content


@pytest.mark.parametrize("viewer", ["organizer", "admin"])
def test_the_organizer_and_admins_see_every_detail(clients, viewer, campaign, pledges, organizer):
    anonymous, named = clients[viewer].get(f"/api/pledges?campaign_id={campaign.pk}").json()

    assert anonymous["name"] == "Secret Giver"
    assert (anonymous["email"], anonymous["phone"]) == ("secret@example.com", "+254733000222")
    assert anonymous["is_anonymous"] and anonymous["details_visible"]
    assert anonymous["code"] == pledges["anonymous"].code
    assert (
        named
        | {
            "name": "Kamau Njoroge",
            "email": "kamau@example.com",
            "phone": "+254722000111",
            "status": "partly_paid",
            "payment_confirmed": False,
            "paid_amount": 1000,
            "remaining_amount": 2000,
            "overpaid_amount": 0,
            "confirmed_at": None,
            "confirmed_by": None,
        }
        == named
    )


@pytest.mark.parametrize("viewer", ["visitor", "member", "organizer", "admin"])
def test_the_campaign_page_carries_the_pledges_and_paid_donations_masked_per_viewer(clients, viewer, campaign, pledges):
    paid_donation(campaign, name="Hidden Donor", email="hd@example.com", anonymous=True, amount=500)
    paid_donation(campaign, name="Open Donor", email="od@example.com", anonymous=False, amount=700)

    body = clients[viewer].get(f"/api/campaigns/{campaign.pk}").json()

    manages = viewer in ("organizer", "admin")
    assert [row["name"] for row in body["pledges"]] == ["Secret Giver" if manages else "Anonymous", "Kamau Njoroge"]
    assert [row["name"] for row in body["donations"]] == ["Open Donor", "Hidden Donor" if manages else "Anonymous"]
    assert [row["details_visible"] for row in body["pledges"] + body["donations"]] == [manages] * 4
    assert body["paid_total"] == 1000
    assert (body["pledged_total"], body["raised_total"], body["donor_count"]) == (10_000, 2200, 3)
    if not manages:
        content = str(body)
        for secret in ("Secret Giver", "secret@example.com", "Hidden Donor", "hd@example.com", "od@example.com"):
            assert secret not in content


def test_the_campaign_page_lists_the_ten_newest_pledges(visitor_client, campaign):
    PledgeFactory.create_batch(12, campaign=campaign)

    rows = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()["pledges"]

    newest = Pledge.objects.filter(campaign=campaign).order_by("-created_at", "-id")[:10]
    assert [row["id"] for row in rows] == [p.pk for p in newest]


@pytest.mark.parametrize("count", [1, 30])
def test_the_list_and_the_campaign_page_take_the_same_queries_for_1_or_30_pledges(
    organizer_client, campaign, organizer, django_assert_num_queries, count
):
    PledgeFactory.create_batch(count, campaign=campaign, confirmed_by=organizer, status=PledgeStatus.CONFIRMED)
    for _ in range(count):
        paid_donation(campaign)

    # session, user, the campaign, the count, the page
    with django_assert_num_queries(5):
        assert len(organizer_client.get(f"/api/pledges?campaign_id={campaign.pk}&page_size=50").json()) == count
    # session, user, the campaign, its pledges, its donations, the paid total and payers, its donors, its
    # accounts, its card account
    with django_assert_num_queries(9):
        body = organizer_client.get(f"/api/campaigns/{campaign.pk}").json()
    assert len(body["pledges"]) == len(body["donations"]) == min(count, 10)


def test_the_list_pages_and_searches(organizer_client, visitor_client, campaign, pledges):
    PledgeFactory.create_batch(3, campaign=campaign, name="Wekesa")

    page = organizer_client.get(f"/api/pledges?campaign_id={campaign.pk}&page=2&page_size=2")
    assert (page["X-Total-Count"], len(page.json())) == ("5", 2)
    assert organizer_client.get(f"/api/pledges?campaign_id={campaign.pk}&page=9").json() == []

    def names(client, query):
        return [row["name"] for row in client.get(f"/api/pledges?campaign_id={campaign.pk}&{query}").json()]

    assert names(organizer_client, "q=secret") == ["Secret Giver"]
    assert names(organizer_client, f"q={pledges['named'].code.lower()}") == ["Kamau Njoroge"]
    assert names(organizer_client, "q=0722000") == ["Kamau Njoroge"]
    assert names(organizer_client, "status=partly_paid") == ["Kamau Njoroge"]
    # Nobody finds an anonymous pledger by name, and others cannot filter by payment state.
    assert names(visitor_client, "q=secret") == []
    assert names(visitor_client, "q=kamau") == ["Kamau Njoroge"]
    assert len(names(visitor_client, "status=partly_paid")) == 5


def test_the_pledges_of_a_hidden_campaign_are_404_for_others(visitor_client, organizer_client, pending_campaign):
    PledgeFactory.create(campaign=pending_campaign)

    assert visitor_client.get(f"/api/pledges?campaign_id={pending_campaign.pk}").status_code == 404
    assert len(organizer_client.get(f"/api/pledges?campaign_id={pending_campaign.pk}").json()) == 1


def test_pledges_add_up_on_the_campaign_and_never_touch_the_ledger(visitor_client, campaign):
    for amount in (100, 250, 650):
        pledge(visitor_client, campaign, amount=amount)

    assert Campaign.objects.get(pk=campaign.pk).pledged_total == 1000
    assert not Payment.objects.exists()


# The ministry page ------------------------------------------------------------------------


def test_the_ministry_page_finds_its_campaign_by_title_or_id(visitor_client, settings, organizer):
    assert visitor_client.get("/api/ministry-campaign").status_code == 404
    ministry = CampaignFactory.create(organizer=organizer, title=settings.MINISTRY_CAMPAIGN_TITLE)
    other = CampaignFactory.create(organizer=organizer)

    assert visitor_client.get("/api/ministry-campaign").json() == {"campaign_id": ministry.pk}
    settings.MINISTRY_CAMPAIGN_ID = other.pk
    assert visitor_client.get("/api/ministry-campaign").json() == {"campaign_id": other.pk}
