"""M-Pesa STK Push end to end: our API -> the real Daraja adapter -> the simulator over HTTP ->
its callback (from another thread) -> our callback endpoint -> the ledger and the effect."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from campaigns.models import CampaignStatus
from payments.models import Payment, PaymentEvent, Subscription
from payments.tests.support import make_campaign, settled, wait_for
from simulators.models import SimulatedStkRequest

pytestmark = pytest.mark.django_db(transaction=True)


def start(client, **fields):
    body = {"purpose": "subscription", "phone": "0708374149", "idempotency_key": "attempt-0001", **fields}
    return client.post("/api/payments/stk-push", body)


def test_a_paid_activation_fee_activates_the_campaign_and_mails_a_receipt(providers, make_api_client, user):
    campaign = make_campaign(organizer=user)
    client = make_api_client(signed_in_as=user)

    response = start(client, purpose="campaign_activation", campaign_id=campaign.pk)

    assert response.status_code == 201, response.content
    assert response.json()["status"] == "pending"
    assert response.json()["amount"] == settings.CAMPAIGN_ACTIVATION_FEE_KES
    payment = settled(response.json()["reference"])
    assert payment.status == Payment.Status.SUCCEEDED
    assert payment.mpesa_receipt and payment.receipt_number and payment.settled_at
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ACTIVE
    polled = client.get(f"/api/payments/{payment.reference}").json()
    assert polled["status"] == "succeeded"
    assert polled["receipt_number"] == payment.receipt_number
    # Queued once the credit is committed: the receipt, and (the notifications app's) "now live".
    wait_for(lambda: len(mail.outbox) == 2)
    assert [message.to for message in mail.outbox] == [[user.email], [user.email]]
    assert any(payment.receipt_number in message.body for message in mail.outbox)


def test_a_paid_subscription_makes_the_user_a_subscriber(providers, make_api_client, user):
    client = make_api_client(signed_in_as=user)

    payment = settled(start(client).json()["reference"])

    assert payment.amount == settings.SUBSCRIPTION_FEE_KES
    subscription = Subscription.objects.get(payment=payment)
    assert subscription.ends_at - subscription.starts_at == timedelta(days=settings.SUBSCRIPTION_PERIOD_DAYS)
    answer = client.get(f"/api/organizations?action=payment-status&user_email={user.email}")
    assert answer.json() == {"has_paid": True}


@pytest.mark.parametrize(
    ("phone", "status", "result_code"),
    [
        ("0700001032", Payment.Status.CANCELLED, "1032"),
        ("0700001037", Payment.Status.FAILED, "1037"),
        ("0700000001", Payment.Status.FAILED, "1"),
    ],
    ids=["cancelled-by-user", "timeout", "insufficient-funds"],
)
def test_an_unsuccessful_prompt_is_recorded_with_its_result(
    providers, make_api_client, user, phone, status, result_code
):
    campaign = make_campaign(organizer=user)
    client = make_api_client(signed_in_as=user)

    response = start(client, purpose="campaign_activation", campaign_id=campaign.pk, phone=phone)

    payment = settled(response.json()["reference"])
    assert (payment.status, payment.result_code) == (status, result_code)
    assert payment.receipt_number is None and payment.settled_at is None
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.PENDING
    assert client.get(f"/api/payments/{payment.reference}").json()["result_desc"] == payment.result_desc
    assert mail.outbox == []


def test_a_callback_that_never_comes_is_recovered_by_querying_after_two_minutes(providers, make_api_client, user):
    client = make_api_client(signed_in_as=user)
    reference = start(client, phone="0700009999").json()["reference"]
    payment = Payment.objects.get(reference=reference)
    # The simulated payer pays, but the simulator sends no callback for numbers ending 9999.
    wait_for(
        lambda: SimulatedStkRequest.objects.filter(
            checkout_request_id=payment.checkout_request_id, result_code=0
        ).exists()
    )

    assert client.get(f"/api/payments/{reference}").json()["status"] == "pending"  # too early to ask
    Payment.objects.filter(pk=payment.pk).update(created_at=timezone.now() - timedelta(minutes=3))
    polled = client.get(f"/api/payments/{reference}").json()

    assert polled["status"] == "succeeded"
    payment.refresh_from_db()
    assert payment.amount == settings.SUBSCRIPTION_FEE_KES
    assert payment.mpesa_receipt is None  # a query does not tell the receipt; a late callback would
    assert payment.events.get().kind == PaymentEvent.Kind.STK_QUERY
    assert Subscription.objects.filter(user=user).count() == 1


def test_a_prompt_still_open_stays_pending_when_queried(providers, make_api_client, user):
    client = make_api_client(signed_in_as=user)
    reference = start(client, phone="0700000000").json()["reference"]  # waits on the virtual phone
    Payment.objects.filter(reference=reference).update(created_at=timezone.now() - timedelta(minutes=3))

    assert client.get(f"/api/payments/{reference}").json()["status"] == "pending"

    event = PaymentEvent.objects.get(payment__reference=reference)
    assert (event.kind, event.outcome) == (PaymentEvent.Kind.STK_QUERY, PaymentEvent.Outcome.PENDING)


def test_the_same_idempotency_key_returns_the_same_intent_and_prompts_once(providers, make_api_client, user):
    client = make_api_client(signed_in_as=user)

    first, second = start(client, phone="0700000000"), start(client, phone="0700000000")

    assert first.json()["reference"] == second.json()["reference"]
    assert Payment.objects.count() == 1
    assert SimulatedStkRequest.objects.count() == 1
    assert (
        start(client, phone="0700000000", idempotency_key="attempt-0002").json()["reference"]
        != first.json()["reference"]
    )
