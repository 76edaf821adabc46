"""Hosted card checkout end to end: our API -> the real Paystack adapter -> the simulator's
checkout page -> the payer's return and the signed webhook -> verify -> the ledger."""

import hashlib
import hmac
import json
import re

import httpx
import pytest
from django.conf import settings
from django.test import Client

from payments.models import Payment, PaymentEvent, Subscription
from payments.providers.paystack import PaystackClient
from payments.tests.support import make_campaign, settled, wait_for

pytestmark = pytest.mark.django_db(transaction=True)
Outcome = PaymentEvent.Outcome
WEBHOOK_URL = "/api/payments/callbacks/card"


def open_checkout(client, **fields):
    body = {"purpose": "subscription", "idempotency_key": "attempt-0001", "return_path": "/grantfunding", **fields}
    response = client.post("/api/payments/checkout", body)
    assert response.status_code == 201, response.content
    return response.json()


def press(checkout_url: str, action: str) -> tuple[httpx.Client, str]:
    """Act as the payer's browser on the hosted page; returns it and where the page sends it back."""
    browser = httpx.Client(timeout=10)
    page = browser.get(checkout_url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, page.text
    answer = browser.post(checkout_url, data={"csrfmiddlewaretoken": token.group(1), "action": action})
    assert answer.status_code == 302, answer.text
    return browser, answer.headers["location"]


def sign(content: bytes, key: str | None = None) -> str:
    return hmac.new((key or settings.PAYSTACK_SECRET_KEY).encode(), content, hashlib.sha512).hexdigest()


def webhook(content: bytes, signature: str):
    return Client(enforce_csrf_checks=True).post(
        WEBHOOK_URL, content, content_type="application/json", HTTP_X_PAYSTACK_SIGNATURE=signature
    )


def charge_success(reference: str, amount: int) -> bytes:
    return json.dumps(
        {"event": "charge.success", "data": {"reference": reference, "amount": amount, "status": "success"}}
    ).encode()


def test_paying_on_the_checkout_credits_once_whether_the_return_or_the_webhook_comes_first(
    providers, make_api_client, user
):
    client = make_api_client(signed_in_as=user)
    checkout = open_checkout(client)
    assert checkout["checkout_url"].startswith(f"{providers.url}/simulators/paystack/checkout/")

    browser, back = press(checkout["checkout_url"], "pay")
    assert (
        back
        == f"{providers.url}/api/payments/card/return?trxref={checkout['reference']}&reference={checkout['reference']}"
    )
    page = browser.get(back)  # the payer's return: verified at Paystack, then credited

    assert page.status_code == 200
    assert "Payment received" in page.text
    assert 'href="/grantfunding?payment=' in page.text
    assert page.headers["X-Frame-Options"] == "SAMEORIGIN"  # shown inside our dialog
    assert "frame-ancestors 'self'" in page.headers["Content-Security-Policy"]
    payment = Payment.objects.get(reference=checkout["reference"])
    assert (payment.status, payment.amount) == (Payment.Status.SUCCEEDED, settings.SUBSCRIPTION_FEE_KES)
    assert payment.provider_reference  # Paystack's transaction id
    assert Subscription.objects.filter(user=user, payment=payment).exists()
    webhook_event = wait_for(lambda: payment.events.filter(kind=PaymentEvent.Kind.CARD_WEBHOOK).first())
    assert webhook_event is not None and webhook_event.outcome == Outcome.DUPLICATE
    assert client.get(f"/api/payments/{payment.reference}").json()["status"] == "succeeded"


def test_the_signed_webhook_alone_credits_when_the_payer_never_returns(providers, make_api_client, user):
    campaign = make_campaign(organizer=user)
    checkout = open_checkout(make_api_client(signed_in_as=user), purpose="campaign_activation", campaign_id=campaign.pk)

    press(checkout["checkout_url"], "pay")

    payment = settled(checkout["reference"])
    # The verify on the checkout's return and the webhook both credit-check; wait for the second too.
    wait_for(lambda: payment.events.count() == 2)
    assert payment.status == Payment.Status.SUCCEEDED
    assert payment.amount == settings.CAMPAIGN_ACTIVATION_FEE_KES
    assert list(payment.events.values_list("kind", "outcome").order_by("id")) == [
        (PaymentEvent.Kind.CARD_VERIFY, Outcome.CREDITED),
        (PaymentEvent.Kind.CARD_WEBHOOK, Outcome.CREDITED),
    ]
    campaign.refresh_from_db()
    assert campaign.status == "active"


def test_a_declined_card_fails_the_payment(providers, make_api_client, user):
    checkout = open_checkout(make_api_client(signed_in_as=user))

    browser, back = press(checkout["checkout_url"], "decline")
    page = browser.get(back)

    assert "did not go through" in page.text
    payment = Payment.objects.get(reference=checkout["reference"])
    assert (payment.status, payment.result_desc) == (Payment.Status.FAILED, "Declined")
    assert not Subscription.objects.exists()


def test_a_forged_webhook_signature_changes_nothing(providers, make_api_client, user):
    checkout = open_checkout(make_api_client(signed_in_as=user))
    content = charge_success(checkout["reference"], settings.SUBSCRIPTION_FEE_KES * 100)

    for signature in ("", "0" * 128, sign(content, key="sk_test_someone_else")):
        assert webhook(content, signature).status_code == 401

    payment = Payment.objects.get(reference=checkout["reference"])
    assert payment.status == Payment.Status.PENDING
    assert set(PaymentEvent.objects.values_list("outcome", flat=True)) == {Outcome.REJECTED_SIGNATURE}


def test_forged_webhooks_are_limited_per_address_and_no_longer_recorded_past_it(
    providers, make_api_client, user, settings
):
    settings.RATE_LIMIT_CALLBACK_REJECTED = (2, 600)
    checkout = open_checkout(make_api_client(signed_in_as=user))
    content = charge_success(checkout["reference"], settings.SUBSCRIPTION_FEE_KES * 100)

    assert [webhook(content, "0" * 128).status_code for _ in range(3)] == [401, 401, 429]
    assert webhook(content, sign(content)).status_code == 200
    assert PaymentEvent.objects.filter(outcome=Outcome.REJECTED_SIGNATURE).count() == 2


def test_a_forged_webhook_is_kept_only_as_a_bounded_summary(providers):
    content = json.dumps({"event": "charge.success", "padding": "x" * 50_000}).encode()

    assert webhook(content, "0" * 128).status_code == 401

    event = PaymentEvent.objects.get()
    assert event.body == {
        "size": len(content),
        "sha256": hashlib.sha256(content).hexdigest(),
        "head": content[:1024].decode(),
    }


def test_a_webhook_body_larger_than_any_real_one_is_refused_and_not_stored(providers):
    content = json.dumps({"event": "charge.success", "padding": "x" * 70_000}).encode()

    assert webhook(content, sign(content)).status_code == 413
    assert not PaymentEvent.objects.exists()


def test_a_genuine_webhook_is_still_verified_before_crediting(providers, make_api_client, user):
    """A correctly signed charge.success for a checkout nobody paid: verify says abandoned."""
    checkout = open_checkout(make_api_client(signed_in_as=user))
    content = charge_success(checkout["reference"], settings.SUBSCRIPTION_FEE_KES * 100)

    assert webhook(content, sign(content)).status_code == 200

    assert Payment.objects.get(reference=checkout["reference"]).status == Payment.Status.PENDING
    assert PaymentEvent.objects.get(kind=PaymentEvent.Kind.CARD_WEBHOOK).outcome == Outcome.PENDING


def test_a_paid_amount_that_differs_from_the_intent_is_flagged_not_credited(providers, user):
    payment = Payment.objects.create(
        provider=Payment.Provider.CARD, purpose=Payment.Purpose.SUBSCRIPTION, amount=2500, user=user
    )
    # The provider holds a transaction for the same reference but another amount.
    checkout = PaystackClient.from_settings().initialize(
        email=user.email, amount_kes=25, reference=payment.reference, callback_url="", metadata={}
    )
    press_url = checkout.authorization_url
    browser = httpx.Client(timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', browser.get(press_url).text)
    assert token
    browser.post(press_url, data={"csrfmiddlewaretoken": token.group(1), "action": "pay"})

    wait_for(lambda: payment.events.filter(kind=PaymentEvent.Kind.CARD_WEBHOOK).exists())
    payment.refresh_from_db()
    assert (payment.status, payment.flagged) == (Payment.Status.PENDING, True)
    assert not Subscription.objects.exists()


def test_a_webhook_for_an_unknown_reference_is_acknowledged_and_ignored(providers):
    content = charge_success("NOTOURS12345", 100)

    assert webhook(content, sign(content)).status_code == 200
    assert PaymentEvent.objects.get().outcome == Outcome.IGNORED_UNKNOWN
