"""The e-mailed receipt of a succeeded payment: logged and retried like every message, in the
payer's language."""

import pytest
from django.core import mail
from django.utils import timezone, translation

from accounts.tests.factories import UserFactory
from campaigns.tests.factories import CampaignFactory
from notifications.messages import payment_receipt_notify
from notifications.models import NotificationLog
from payments.models import Payment
from payments.services import payment_record_manual
from pledges.tests.factories import PledgeFactory, paid_donation

pytestmark = pytest.mark.django_db


def receipt_subject(payment) -> str:
    mail.outbox.clear()
    payment_receipt_notify(payment_id=payment.pk)
    [email] = mail.outbox
    return str(email.subject)


@pytest.mark.parametrize(("language", "subject"), [("sw", "Risiti yako ya Harambee"), ("en", "Your Harambee receipt")])
def test_a_donor_s_receipt_is_in_the_language_they_gave_in(language, subject):
    with translation.override(language):
        donation = paid_donation(CampaignFactory.create(), name="Amani Njeri", email="amani@example.com")
    donation.payment.payer_email = "amani@example.com"
    donation.payment.save(update_fields=["payer_email"])

    assert receipt_subject(donation.payment).startswith(subject)


def test_any_other_receipt_is_in_the_payer_s_profile_language():
    organizer = UserFactory.create(language="sw")
    payment = Payment.objects.create(
        provider=Payment.Provider.MPESA_STK,
        purpose=Payment.Purpose.CAMPAIGN_ACTIVATION,
        amount=1_000,
        user=organizer,
        campaign=CampaignFactory.create(organizer=organizer),
    )
    payment.issue_receipt(at=timezone.now())
    payment.save()

    assert receipt_subject(payment).startswith("Risiti yako ya Harambee")


def record_cash(campaign, **fields) -> Payment:
    return payment_record_manual(
        recorded_by=campaign.organizer, provider="cash", amount=2_500, campaign=campaign, **fields
    )


def test_a_credited_payment_s_receipt_is_queued_once_committed_and_logged_as_sent(
    django_capture_on_commit_callbacks,
):
    campaign = CampaignFactory.create(title="New church roof")

    with django_capture_on_commit_callbacks() as callbacks:
        payment = record_cash(campaign, purpose="donation", payer_email="donor@example.com")
    assert not NotificationLog.objects.exists()
    for callback in callbacks:
        callback()

    log = NotificationLog.objects.get(template="email/receipt")
    assert (log.recipient, log.payment, log.pledge, log.status) == ("donor@example.com", payment, None, "sent")
    assert log.subject == f"Your Harambee receipt {payment.receipt_number}"
    assert f"Receipt number: {payment.receipt_number}" in log.body
    assert "Amount: Ksh 2,500" in log.body
    assert "For: Donation (New church roof)" in log.body
    [email] = mail.outbox
    assert (email.to, email.subject, email.body) == (["donor@example.com"], log.subject, log.body)


def test_no_receipt_without_an_address(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        record_cash(CampaignFactory.create(), purpose="donation")

    assert not NotificationLog.objects.exists()


def test_a_pledge_instalment_s_receipt_is_among_the_pledge_s_messages(django_capture_on_commit_callbacks):
    pledge = PledgeFactory.create(language="sw")

    with django_capture_on_commit_callbacks(execute=True):
        record_cash(
            pledge.campaign, purpose="pledge_payment", payer_email="wanjiru@example.com", account_reference=pledge.code
        )

    log = NotificationLog.objects.get(template="email/receipt")
    assert (log.recipient, log.pledge) == ("wanjiru@example.com", pledge)
    assert log.subject.startswith("Risiti yako ya Harambee")


def receipt_email(payment):
    mail.outbox.clear()
    payment_receipt_notify(payment_id=payment.pk)
    [email] = mail.outbox
    return email


def test_a_donor_without_an_account_is_sent_to_the_campaign_not_a_dashboard(settings):
    campaign = CampaignFactory.create()
    donation = paid_donation(campaign, name="Amani Njeri", email="amani@example.com")
    donation.payment.payer_email = "amani@example.com"
    donation.payment.save(update_fields=["payer_email"])

    email = receipt_email(donation.payment)

    assert f"See the campaign: {settings.SITE_URL}/campaign/{campaign.pk}" in email.body
    assert "dashboard" not in email.body + email.alternatives[0][0]
    assert f'href="{settings.SITE_URL}/campaign/{campaign.pk}"' in email.alternatives[0][0]


def test_a_pledger_s_receipt_leads_to_their_pledge(settings, django_capture_on_commit_callbacks):
    pledge = PledgeFactory.create()
    with django_capture_on_commit_callbacks(execute=True):
        record_cash(
            pledge.campaign, purpose="pledge_payment", payer_email="wanjiru@example.com", account_reference=pledge.code
        )

    body = NotificationLog.objects.get(template="email/receipt").body

    assert f"See your pledge: {settings.SITE_URL}/pledges/{pledge.code}" in body
    assert "dashboard" not in body


def test_an_organizer_s_fee_receipt_leads_to_the_dashboard(settings):
    organizer = UserFactory.create()
    payment = Payment.objects.create(
        provider=Payment.Provider.MPESA_STK,
        purpose=Payment.Purpose.CAMPAIGN_ACTIVATION,
        amount=1_000,
        user=organizer,
        campaign=CampaignFactory.create(organizer=organizer),
    )
    payment.issue_receipt(at=timezone.now())
    payment.save()

    assert f"Go to your dashboard: {settings.SITE_URL}/dashboard" in receipt_email(payment).body
