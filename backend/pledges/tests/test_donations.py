"""Donations: validation, then the real payment flow (our API -> the Daraja or Paystack adapter ->
the simulator over HTTP -> its callback -> the ledger -> the donation counted once)."""

import json

import pytest
from django.test import Client

from campaigns.models import Campaign, CampaignStatus
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_SUBACCOUNT_CODE, card_bank_account
from payments.models import Payment, PaymentEvent
from payments.tests.support import CHECKOUT_REQUEST_ID, pending_stk_intent, settled, stk_callback, wait_for
from payments.tests.test_card import press
from pledges.models import Donation
from pledges.services import donation_attach_payment
from pledges.tests.factories import paid_donation
from simulators.models import SimulatedCardTransaction

STK_CALLBACK_URL = "/api/payments/callbacks/stk/local-callback-token"
SUCCESS_PHONE = "0708374149"  # the simulator approves every prompt to this number
CANCEL_PHONE = "0700001032"  # the payer cancels


def donate(client, campaign, **fields):
    body = {
        "campaign_id": campaign.pk,
        "amount": 500,
        "name": "Akinyi Ouma",
        "email": "akinyi@example.com",
        "phone": SUCCESS_PHONE,
        "is_anonymous": False,
        "method": "mpesa",
        "idempotency_key": "donation-attempt-1",
        **fields,
    }
    return client.post("/api/donations", body)


def totals(campaign):
    campaign = Campaign.objects.get(pk=campaign.pk)
    return campaign.raised_total, campaign.donor_count


def deliver(body):
    """Daraja delivering a callback (again)."""
    answer = Client(enforce_csrf_checks=True).post(STK_CALLBACK_URL, json.dumps(body), content_type="application/json")
    assert answer.status_code == 200


# Validation (no payment is started) ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "detail", "field_errors"),
    [
        ({"amount": 0}, "Please enter a valid donation amount", {"amount": "Please enter a valid donation amount"}),
        ({"amount": None}, "Please enter a valid donation amount", {"amount": "Please enter a valid donation amount"}),
        ({"amount": 99.5}, "Please enter a valid donation amount", {"amount": "Please enter a valid donation amount"}),
        (
            {"name": "", "email": " "},
            "Please fill in your name and email",
            {"name": "Please fill in your name and email", "email": "Please fill in your name and email"},
        ),
        ({"email": ""}, "Please fill in your name and email", {"email": "Please fill in your name and email"}),
        (
            {"name": "\u200b\u200b"},
            "Please fill in your name and email",
            {"name": "Please fill in your name and email"},
        ),
        ({"phone": ""}, "Please correct the errors below", {"phone": "Please enter your M-Pesa phone number."}),
        (
            {"phone": "12345"},
            "Please correct the errors below",
            {"phone": "Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)"},
        ),
        (
            {"method": "card", "is_anonymous": True, "email": "", "phone": ""},
            "Please correct the errors below",
            {"email": "Please enter your email address to pay by card."},
        ),
    ],
    ids=[
        "zero",
        "missing",
        "fraction",
        "no-name-or-email",
        "no-email",
        "invisible-name",
        "no-phone",
        "bad-phone",
        "card-no-email",
    ],
)
def test_invalid_donations_are_refused_with_the_spec_s_messages(visitor_client, campaign, fields, detail, field_errors):
    response = donate(visitor_client, campaign, **fields)

    assert response.status_code == 422
    assert response.json() == {"detail": detail, "code": "invalid", "field_errors": field_errors}
    assert not Payment.objects.exists() and not Donation.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("status", [CampaignStatus.PENDING, CampaignStatus.CLOSED])
def test_donations_to_campaigns_that_are_not_open_are_refused(organizer_client, organizer, status):
    campaign = CampaignFactory.create(organizer=organizer, status=status)

    response = donate(organizer_client, campaign)

    assert response.status_code == 400
    assert "accept" in response.json()["detail"]
    assert not Payment.objects.exists()


# The payment flow -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_an_mpesa_donation_raises_the_totals_once_it_is_paid_and_only_once(providers, visitor_client, campaign):
    response = donate(visitor_client, campaign, name="", email="", is_anonymous=True)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["payment"] | {"status": "pending", "amount": 500, "purpose": "donation"} == body["payment"]
    donation = Donation.objects.get(pk=body["donation_id"])
    assert (donation.amount, donation.is_anonymous, donation.phone, donation.counted_at) == (
        500,
        True,
        "+254708374149",
        None,
    )
    payment = settled(body["payment"]["reference"])
    assert payment.status == Payment.Status.SUCCEEDED
    assert visitor_client.get(f"/api/payments/{payment.reference}").json()["status"] == "succeeded"
    assert totals(campaign) == (500, 1)
    donation.refresh_from_db()
    assert donation.counted_at is not None and donation.status == "succeeded"

    # Daraja repeats its callback; the donor taps Donate again with the same key.
    callback = PaymentEvent.objects.get(payment=payment, outcome=PaymentEvent.Outcome.CREDITED).body
    for _ in range(3):
        deliver(callback)
    again = donate(visitor_client, campaign, name="", email="", is_anonymous=True)

    assert again.json()["donation_id"] == donation.pk
    assert (Payment.objects.count(), Donation.objects.count()) == (1, 1)
    assert totals(campaign) == (500, 1)
    public = visitor_client.get(f"/api/donations?campaign_id={campaign.pk}")
    assert public["X-Total-Count"] == "1"
    assert public.json()[0] | {"name": "Anonymous", "amount": 500, "provider": None} == public.json()[0]


@pytest.mark.django_db(transaction=True)
def test_a_cancelled_donation_changes_nothing(providers, visitor_client, campaign):
    response = donate(visitor_client, campaign, phone=CANCEL_PHONE)

    payment = settled(response.json()["payment"]["reference"])

    assert payment.status == Payment.Status.CANCELLED
    assert Donation.objects.get().status == "cancelled"
    assert totals(campaign) == (0, 0)
    assert visitor_client.get(f"/api/donations?campaign_id={campaign.pk}").json() == []


@pytest.mark.django_db(transaction=True)
def test_a_card_donation_settles_to_the_churchs_bank_account_and_counts_once_paid(providers, visitor_client, campaign):
    bank_account = card_bank_account(campaign.organization)

    response = donate(visitor_client, campaign, method="card", phone="", return_path="/campaign/1/donate")

    assert response.status_code == 201, response.content
    checkout_url = response.json()["payment"]["checkout_url"]
    assert checkout_url.startswith(f"{providers.url}/simulators/paystack/checkout/")
    assert totals(campaign) == (0, 0)
    # Paystack was told to settle it to the church's subaccount, never to the platform's account.
    assert SimulatedCardTransaction.objects.filter(subaccount__subaccount_code=TEST_SUBACCOUNT_CODE).exists()

    press(checkout_url, "pay")

    wait_for(lambda: Donation.objects.filter(counted_at__isnull=False).exists())
    assert totals(campaign) == (500, 1)
    payment = Payment.objects.get()
    assert (payment.provider, payment.collection_account) == (Payment.Provider.CARD, bank_account)


@pytest.mark.django_db
def test_a_campaign_whose_church_takes_no_cards_refuses_a_card_donation_and_says_so(visitor_client, campaign):
    assert visitor_client.get(f"/api/campaigns/{campaign.pk}").json()["offers_card_payment"] is False

    response = donate(visitor_client, campaign, method="card", phone="")

    assert (response.status_code, response.json()["code"]) == (400, "cards_unavailable")
    assert response.json()["detail"] == "This campaign takes no card payments: please give by M-Pesa."
    assert not Payment.objects.exists()
    assert not Donation.objects.exists()


@pytest.mark.django_db
def test_the_campaign_page_offers_cards_once_its_church_has_a_bank_account_that_takes_them(visitor_client, campaign):
    card_bank_account(campaign.organization)

    assert visitor_client.get(f"/api/campaigns/{campaign.pk}").json()["offers_card_payment"] is True


@pytest.mark.django_db
def test_a_callback_that_beats_the_donation_record_is_still_counted_once(campaign):
    payment = pending_stk_intent(amount=750, purpose=Payment.Purpose.DONATION, campaign=campaign)
    deliver(stk_callback(CHECKOUT_REQUEST_ID, amount=750))
    assert totals(campaign) == (0, 0)  # nothing to count yet

    donation = donation_attach_payment(
        payment=payment, campaign=campaign, name="Kip", email="kip@example.com", phone="", is_anonymous=False
    )
    deliver(stk_callback(CHECKOUT_REQUEST_ID, amount=750))
    donation_attach_payment(
        payment=payment, campaign=campaign, name="Kip", email="kip@example.com", phone="", is_anonymous=False
    )

    assert donation.counted_at is not None
    assert Donation.objects.count() == 1
    assert totals(campaign) == (750, 1)


@pytest.mark.django_db
@pytest.mark.parametrize("viewer", ["visitor", "member", "organizer", "admin"])
def test_the_donation_list_is_masked_for_everyone_but_managers(clients, viewer, campaign):
    paid_donation(campaign, name="Wafula", email="wafula@example.com", anonymous=True, amount=300)

    [row] = clients[viewer].get(f"/api/donations?campaign_id={campaign.pk}").json()

    if viewer in ("organizer", "admin"):
        assert (row["name"], row["email"], row["provider"], row["details_visible"]) == (
            "Wafula",
            "wafula@example.com",
            "cash",
            True,
        )
    else:
        assert (row["name"], row["email"], row["phone"], row["provider"]) == (
            "Anonymous",
            "hidden@anonymous.invalid",
            "Hidden",
            None,
        )
