from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.models import CampaignStatus
from payments.models import Payment, Subscription
from payments.tests.support import make_campaign

pytestmark = pytest.mark.django_db


def subscribe(user, *, days_left: int) -> Subscription:
    payment = Payment.objects.create(
        provider=Payment.Provider.CARD, purpose=Payment.Purpose.SUBSCRIPTION, amount=2500, user=user, status="succeeded"
    )
    now = timezone.now()
    return Subscription.objects.create(
        user=user, payment=payment, starts_at=now - timedelta(days=30), ends_at=now + timedelta(days=days_left)
    )


def status_url(email: str) -> str:
    return f"/api/organizations?action=payment-status&user_email={email}"


class TestPaymentStatus:
    def test_a_subscriber_has_paid(self, signed_in_client, user, django_assert_num_queries):
        subscribe(user, days_left=10)

        with django_assert_num_queries(3):  # session, user, subscription
            answer = signed_in_client.get(status_url(user.email.upper()))

        assert (answer.status_code, answer.json()) == (200, {"has_paid": True})

    def test_without_a_current_subscription_the_user_has_not_paid(self, signed_in_client, user):
        subscribe(user, days_left=-1)

        assert signed_in_client.get(status_url(user.email)).json() == {"has_paid": False}

    def test_asking_about_another_email_is_forbidden(self, signed_in_client):
        answer = signed_in_client.get(status_url("someone.else@example.com"))

        assert answer.status_code == 403
        assert answer.json()["code"] == "forbidden"

    def test_signed_out_it_asks_to_sign_in(self, api_client, user):
        assert api_client.get(status_url(user.email)).status_code == 401

    def test_another_action_is_invalid(self, signed_in_client, user):
        assert signed_in_client.get(f"/api/organizations?action=list&user_email={user.email}").status_code == 422


class TestPaymentDetail:
    def test_the_payer_sees_their_payment(self, signed_in_client, user, django_assert_num_queries):
        payment = Payment.objects.create(provider="mpesa_stk", purpose="subscription", amount=2500, user=user)

        with django_assert_num_queries(3):  # session, user, payment
            answer = signed_in_client.get(f"/api/payments/{payment.reference}")

        assert answer.json() == {
            "reference": payment.reference,
            "status": "pending",
            "amount": 2500,
            "provider": "mpesa_stk",
            "purpose": "subscription",
            "campaign_id": None,
            "result_desc": "",
            "receipt_number": None,
            "checkout_url": None,
            "created_at": answer.json()["created_at"],
            "settled_at": None,
        }

    def test_another_users_payment_is_not_found(self, make_api_client, user):
        payment = Payment.objects.create(provider="mpesa_stk", purpose="subscription", amount=2500, user=user)

        for client in (make_api_client(), make_api_client(signed_in_as=UserFactory.create())):
            assert client.get(f"/api/payments/{payment.reference}").status_code == 404

    def test_an_anonymous_payment_is_seen_by_whoever_holds_its_reference(self, api_client):
        payment = Payment.objects.create(provider="mpesa_stk", purpose="donation", amount=500)

        assert api_client.get(f"/api/payments/{payment.reference.lower()}").json()["amount"] == 500


class TestStartingAFeePayment:
    def start(self, client, **fields):
        body = {"purpose": "campaign_activation", "phone": "0708374149", "idempotency_key": "attempt-0001", **fields}
        return client.post("/api/payments/stk-push", body)

    def test_signed_out_it_asks_to_sign_in(self, api_client):
        assert self.start(api_client, purpose="subscription").status_code == 401

    def test_a_bad_phone_number_is_a_field_error(self, signed_in_client, user):
        campaign = make_campaign(organizer=user)

        answer = self.start(signed_in_client, campaign_id=campaign.pk, phone="12345")

        assert answer.status_code == 422
        assert answer.json()["field_errors"] == {
            "phone": "Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)"
        }
        assert not Payment.objects.exists()

    def test_someone_elses_campaign_is_not_found(self, signed_in_client):
        campaign = make_campaign(organizer=UserFactory.create())

        assert self.start(signed_in_client, campaign_id=campaign.pk).status_code == 404

    def test_an_active_campaign_needs_no_activation_fee(self, signed_in_client, user):
        campaign = make_campaign(organizer=user, status=CampaignStatus.ACTIVE)

        answer = self.start(signed_in_client, campaign_id=campaign.pk)

        assert (answer.status_code, answer.json()["code"]) == (400, "campaign_not_pending")

    def test_only_fees_are_paid_here(self, signed_in_client):
        answer = self.start(signed_in_client, purpose="donation", amount=10)

        assert answer.status_code == 422
        assert "purpose" in answer.json()["field_errors"]

    def test_an_idempotency_key_is_required(self, signed_in_client):
        assert self.start(signed_in_client, purpose="subscription", idempotency_key="").status_code == 422

    def test_an_unreachable_provider_fails_the_intent_with_a_clear_error(self, signed_in_client, settings):
        settings.MPESA_BASE_URL = "http://127.0.0.1:9"  # nothing listens there

        answer = self.start(signed_in_client, purpose="subscription")

        assert (answer.status_code, answer.json()["code"]) == (400, "provider_unavailable")
        assert Payment.objects.get().status == Payment.Status.FAILED

    def test_a_checkout_also_needs_the_users_own_pending_campaign(self, signed_in_client):
        campaign = make_campaign(organizer=UserFactory.create())

        answer = signed_in_client.post(
            "/api/payments/checkout",
            {"purpose": "campaign_activation", "campaign_id": campaign.pk, "idempotency_key": "attempt-0001"},
        )

        assert answer.status_code == 404


def test_anyone_reads_the_platform_s_prices_from_the_settings(client, settings):
    settings.CAMPAIGN_ACTIVATION_FEE_KES = 1500
    settings.SUBSCRIPTION_FEE_KES = 3000
    settings.SUBSCRIPTION_PERIOD_DAYS = 180

    response = client.get("/api/fees")

    assert response.json() == {
        "campaign_activation_fee": 1500,
        "subscription_fee": 3000,
        "subscription_period_days": 180,
    }
