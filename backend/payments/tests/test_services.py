import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.models import CampaignStatus
from campaigns.services import campaign_status_change
from common.errors import FieldValidationError, PermissionDeniedError
from payments import services
from payments.models import Payment
from payments.signals import payment_succeeded
from payments.tests.support import CHECKOUT_REQUEST_ID, make_campaign, pending_stk_intent, stk_callback, wait_for
from simulators.models import SimulatedStkRequest


@pytest.mark.django_db(transaction=True)
def test_reconcile_asks_daraja_about_overdue_intents_and_expires_old_ones(providers, user):
    paid = services.payment_stk_push_start(purpose="subscription", amount=2500, phone="0700009999", user=user)
    wait_for(
        lambda: SimulatedStkRequest.objects.filter(checkout_request_id=paid.checkout_request_id, result_code=0).exists()
    )
    forgotten = pending_stk_intent(checkout_request_id="ws_CO_FORGOTTEN")
    Payment.objects.filter(pk=paid.pk).update(created_at=timezone.now() - timedelta(minutes=3))
    Payment.objects.filter(pk=forgotten.pk).update(created_at=timezone.now() - timedelta(hours=2))
    out = io.StringIO()

    call_command("payments_reconcile", stdout=out)

    assert out.getvalue().strip() == "Queried 2 pending payment(s); expired 1."
    assert Payment.objects.get(pk=paid.pk).status == Payment.Status.SUCCEEDED
    assert Payment.objects.get(pk=forgotten.pk).status == Payment.Status.EXPIRED


@pytest.mark.django_db
def test_payment_succeeded_receivers_run_inside_the_crediting_transaction():
    seen = []

    def receiver(sender, payment, **kwargs):
        seen.append((payment.status, transaction.get_connection().in_atomic_block))

    pending_stk_intent()
    payment_succeeded.connect(receiver)
    try:
        services.payment_record_stk_callback(body=stk_callback(CHECKOUT_REQUEST_ID), remote_addr="127.0.0.1")
    finally:
        payment_succeeded.disconnect(receiver)

    assert seen == [(Payment.Status.SUCCEEDED, True)]


@pytest.mark.django_db
def test_an_organizer_records_a_cash_payment_credited_at_once(user, mailoutbox, django_capture_on_commit_callbacks):
    campaign = make_campaign(organizer=user)

    with django_capture_on_commit_callbacks(execute=True):
        payment = services.payment_record_manual(
            recorded_by=user,
            provider="cash",
            purpose="pledge_payment",
            amount=3000,
            campaign=campaign,
            payer_phone="0712345678",
            payer_email="donor@example.com",
            note="Paid after the Sunday service",
        )

    assert (payment.status, payment.recorded_by, payment.payer_phone) == ("succeeded", user, "+254712345678")
    assert payment.receipt_number
    assert [message.to for message in mailoutbox] == [["donor@example.com"]]


@pytest.mark.django_db
@pytest.mark.parametrize("amount", [0, 1_000_000_001, 10**20])
def test_a_payment_recorded_by_hand_is_between_ksh_1_and_ksh_1_000_000_000(user, amount):
    campaign = make_campaign(organizer=user)

    with pytest.raises(FieldValidationError) as refused:
        services.payment_record_manual(
            recorded_by=user, provider="cash", purpose="donation", amount=amount, campaign=campaign
        )

    assert refused.value.field_errors == {"amount": "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000."}
    assert not Payment.objects.exists()


@pytest.mark.django_db
def test_only_the_organizer_records_payments_and_a_bank_reference_counts_once(user):
    campaign = make_campaign(organizer=user)
    with pytest.raises(PermissionDeniedError):
        services.payment_record_manual(
            recorded_by=UserFactory.create(), provider="cash", purpose="donation", amount=100, campaign=campaign
        )

    fields = {"recorded_by": user, "provider": "bank", "purpose": "donation", "amount": 100, "campaign": campaign}
    services.payment_record_manual(**fields, bank_reference="FT26112233")
    with pytest.raises(FieldValidationError) as error:
        services.payment_record_manual(**fields, bank_reference="FT26112233")
    assert "bank_reference" in error.value.field_errors
    assert Payment.objects.count() == 1


@pytest.mark.django_db
def test_a_renewal_starts_when_the_current_subscription_ends(settings, user):
    for n in (1, 2):
        Payment.objects.create(
            provider="mpesa_stk", purpose="subscription", amount=2500, user=user, checkout_request_id=f"ws_CO_{n}"
        )
        body = stk_callback(f"ws_CO_{n}", amount=2500, receipt=f"SLK000000{n}")
        services.payment_record_stk_callback(body=body, remote_addr="127.0.0.1")

    periods = list(user.subscriptions.order_by("starts_at"))
    assert periods[1].starts_at == periods[0].ends_at
    assert periods[1].ends_at - periods[0].starts_at == timedelta(days=2 * settings.SUBSCRIPTION_PERIOD_DAYS)


@pytest.mark.parametrize("path", ["/dashboard", "/grantfunding", "/campaign/12/donate", "/campaign/12/", "/"])
def test_a_return_path_may_be_one_of_the_apps_own_pages(path):
    assert services.safe_return_path(path) == path


@pytest.mark.parametrize(
    "path",
    [
        "/\t/evil.example",
        "/\n/evil.example",
        "/\r/evil.example",
        "//evil.example",
        "/\\evil.example",
        "https://evil.example/dashboard",
        " /dashboard",
        "/dashboard\n",
        "/dash board",
        "/campaign/12/\u200b",
        "/admin/",
        "/api/payments/card/return",
        "/dashboard?next=//evil.example",
    ],
)
def test_any_other_return_path_leads_to_the_dashboard(path):
    assert services.safe_return_path(path) == "/dashboard"


@pytest.mark.django_db
def test_an_activation_payment_never_lifts_an_admins_suspension(user):
    site_admin = UserFactory.create(is_staff=True, is_superuser=True)
    campaign = make_campaign(organizer=user, status=CampaignStatus.PENDING)
    payment = pending_stk_intent(purpose=Payment.Purpose.CAMPAIGN_ACTIVATION, campaign=campaign, user=user)
    campaign_status_change(campaign=campaign, status=CampaignStatus.SUSPENDED, changed_by=site_admin, reason="Fraud")

    services.payment_record_stk_callback(body=stk_callback(CHECKOUT_REQUEST_ID), remote_addr="127.0.0.1")

    campaign.refresh_from_db()
    payment.refresh_from_db()
    assert (campaign.status, campaign.suspension_reason) == (CampaignStatus.SUSPENDED, "Fraud")
    assert (payment.status, payment.flagged) == (Payment.Status.SUCCEEDED, True)


@pytest.mark.django_db
def test_only_an_admin_lifts_a_suspension_never_the_system(user):
    site_admin = UserFactory.create(is_staff=True, is_superuser=True)
    campaign = make_campaign(organizer=user)
    campaign_status_change(campaign=campaign, status=CampaignStatus.SUSPENDED, changed_by=site_admin, reason="Fraud")

    with pytest.raises(PermissionDeniedError):
        campaign_status_change(campaign=campaign, status=CampaignStatus.ACTIVE, changed_by=None)
