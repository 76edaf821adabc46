"""A payment provider that takes the request but never answers: the intent stays pending, and the
ledger recovers it (the late callback, our own verification in payments_reconcile, or expiry)."""

import json
import socket
from collections.abc import Iterator
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import CHURCH_CALLBACK_TOKEN, TEST_PAYBILL, card_bank_account
from payments.models import MpesaConnection, Payment, PaymentEvent
from payments.providers import paystack
from payments.providers.daraja import DarajaClient
from payments.providers.paystack import PaystackClient
from payments.services import EXPIRE_AFTER, QUERY_AFTER
from payments.tests.support import stk_callback
from pledges.models import Donation

pytestmark = pytest.mark.django_db

# The campaign's church pushes with its own Daraja app: its callbacks come to its own URL.
STK_CALLBACK_URL = f"/api/payments/callbacks/stk/{CHURCH_CALLBACK_TOKEN}"
DONATION = {
    "amount": 500,
    "name": "Akinyi Ouma",
    "email": "akinyi@example.com",
    "phone": "0708374149",
    "is_anonymous": False,
    "idempotency_key": "donation-attempt-1",
}


@pytest.fixture
def silent_provider(settings, monkeypatch, campaign) -> Iterator[str]:
    """Daraja and Paystack at an address that accepts connections and never answers."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        settings.MPESA_BASE_URL = settings.PAYSTACK_BASE_URL = url
        monkeypatch.setattr("payments.providers.daraja.client.TIMEOUT_SECONDS", 0.5)
        monkeypatch.setattr("payments.providers.paystack.TIMEOUT_SECONDS", 0.5)
        # A token from earlier, so the STK Push request itself is the one left unanswered.
        church = MpesaConnection.objects.get(account__paybill_number=TEST_PAYBILL).credentials()
        for client in (DarajaClient.from_settings(), DarajaClient.for_credentials(church)):
            cache.set(client._token_cache_key, "earlier-token", 3600)
        yield url


@pytest.fixture
def campaign() -> Campaign:
    return CampaignFactory.create(paybill=TEST_PAYBILL)


@pytest.fixture
def visitor_client(make_api_client):
    return make_api_client()


def age(payment: Payment, by: timedelta) -> None:
    Payment.objects.filter(pk=payment.pk).update(created_at=timezone.now() - by)


def deliver(body: dict) -> None:
    answer = Client().post(STK_CALLBACK_URL, json.dumps(body), content_type="application/json")
    assert answer.status_code == 200


def test_an_stk_push_without_an_answer_stays_pending_and_its_late_callback_still_credits_it(
    silent_provider, visitor_client, campaign
):
    response = visitor_client.post("/api/donations", {**DONATION, "campaign_id": campaign.pk, "method": "mpesa"})

    # The payer may well have the prompt: the client is told to wait, as for any pending payment.
    assert response.status_code == 201, response.content
    payment = Payment.objects.get(reference=response.json()["payment"]["reference"])
    assert (payment.status, payment.checkout_request_id) == (Payment.Status.PENDING, None)
    assert Donation.objects.get(payment=payment).counted_at is None

    # Daraja did send it: its callback names a CheckoutRequestID we never learnt, the phone and the amount.
    deliver(stk_callback("ws_CO_NEVER_SEEN", amount=500, receipt="SLKLATE001"))

    payment.refresh_from_db()
    assert (payment.status, payment.checkout_request_id, payment.mpesa_receipt) == (
        Payment.Status.SUCCEEDED,
        "ws_CO_NEVER_SEEN",
        "SLKLATE001",
    )
    assert Campaign.objects.get(pk=campaign.pk).raised_total == 500
    deliver(stk_callback("ws_CO_NEVER_SEEN", amount=500, receipt="SLKLATE001"))  # and only once
    assert Campaign.objects.get(pk=campaign.pk).raised_total == 500


def test_an_unanswered_stk_push_expires_in_the_reconciliation_and_a_late_success_still_counts(
    silent_provider, visitor_client, campaign
):
    response = visitor_client.post("/api/donations", {**DONATION, "campaign_id": campaign.pk, "method": "mpesa"})
    payment = Payment.objects.get(reference=response.json()["payment"]["reference"])
    age(payment, EXPIRE_AFTER + timedelta(minutes=1))

    call_command("payments_reconcile", stdout=None)

    payment.refresh_from_db()
    assert payment.status == Payment.Status.EXPIRED
    deliver(stk_callback("ws_CO_LATE", amount=500, receipt="SLKLATE002"))
    payment.refresh_from_db()
    assert payment.status == Payment.Status.SUCCEEDED
    assert Campaign.objects.get(pk=campaign.pk).raised_total == 500


def test_callbacks_that_match_no_unanswered_push_or_several_are_left_alone(silent_provider, visitor_client, campaign):
    for key in ("attempt-1", "attempt-2"):  # two pushes of the same amount to the same phone
        visitor_client.post(
            "/api/donations", {**DONATION, "campaign_id": campaign.pk, "method": "mpesa", "idempotency_key": key}
        )

    deliver(stk_callback("ws_CO_AMBIGUOUS", amount=500, receipt="SLKAMBIG01"))
    deliver(stk_callback("ws_CO_OTHER_AMOUNT", amount=499, receipt="SLKAMBIG02"))

    assert set(Payment.objects.values_list("status", flat=True)) == {Payment.Status.PENDING}
    outcomes = PaymentEvent.objects.filter(kind="stk_callback").values_list("outcome", flat=True)
    assert list(outcomes) == [PaymentEvent.Outcome.IGNORED_UNKNOWN] * 2


def test_a_checkout_without_an_answer_stays_pending_for_the_reconciliation_to_verify(
    silent_provider, visitor_client, campaign
):
    card_bank_account(campaign.organization)
    response = visitor_client.post("/api/donations", {**DONATION, "campaign_id": campaign.pk, "method": "card"})

    assert (response.status_code, response.json()["code"]) == (400, "provider_unavailable")
    payment = Payment.objects.get()
    assert (payment.status, payment.checkout_url) == (Payment.Status.PENDING, "")

    # Paystack answers again: the reconciliation asks it about the intent by its reference.
    abandoned = paystack.Transaction(
        body={},
        reference=payment.reference,
        status="abandoned",
        amount_subunit=50_000,
        currency="KES",
        transaction_id="1",
        gateway_response="",
    )
    age(payment, QUERY_AFTER + timedelta(seconds=1))
    with mock.patch.object(PaystackClient, "verify", return_value=abandoned) as verify:
        call_command("payments_reconcile", stdout=None)
    verify.assert_called_once_with(payment.reference)
    payment.refresh_from_db()
    assert payment.status == Payment.Status.PENDING

    age(payment, EXPIRE_AFTER + timedelta(minutes=1))
    with mock.patch.object(PaystackClient, "verify", return_value=abandoned):
        call_command("payments_reconcile", stdout=None)
    payment.refresh_from_db()
    assert payment.status == Payment.Status.EXPIRED
