"""Messages on pledge events: rendered from the templates, logged, delivered in the background."""

from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_PAYBILL
from notifications.models import NotificationLog
from notifications.outbox import notification_deliver
from notifications.reminders import pledge_reminder_send
from payments.models import Payment
from pledges.services import pledge_create, pledge_payment_record
from pledges.tests.factories import PledgeFactory
from simulators.models import SimulatedSms

GSM7_TWO_SEGMENTS = 300


def pledge_of_12500(campaign, **fields):
    return pledge_create(
        campaign_id=campaign.pk,
        amount=12_500,
        name=fields.get("name", "Wanjiru Kamau"),
        email="wanjiru@example.com",
        phone="0712345678",
        is_anonymous=False,
        viewer=None,
        client_ip="10.0.0.1",
    )


@pytest.mark.django_db(transaction=True)
def test_a_pledge_sends_the_pledger_an_email_and_an_sms_with_the_code_and_how_to_pay(sms_gateway, settings):
    settings.MPESA_SHORTCODE = "522522"
    campaign = CampaignFactory.create(title="New church roof", paybill=TEST_PAYBILL)

    pledge = pledge_of_12500(campaign)

    [email] = [message for message in mail.outbox if message.to == ["wanjiru@example.com"]]
    assert pledge.code in email.subject
    assert isinstance(email, EmailMultiAlternatives)
    html = str(email.alternatives[0][0])
    for body in (email.body, html):
        assert "Ksh 12,500" in body
        assert "New church roof" in body
        # The church's own paybill with the code as account; never Harambee's (522522).
        assert TEST_PAYBILL in body and pledge.code in body and "522522" not in body
        assert f"{settings.SITE_URL}/pledges/{pledge.code}" in body
    sms = SimulatedSms.objects.get()
    assert sms.to == "+254712345678"
    assert f"Pay via Paybill {TEST_PAYBILL}, account {pledge.code}." in sms.message
    assert "Ksh 12,500" in sms.message and "522522" not in sms.message
    logs = NotificationLog.objects.filter(pledge=pledge)
    assert {(log.channel, log.template, log.status) for log in logs} == {
        ("email", "email/pledge_recorded", "sent"),
        ("sms", "sms/pledge_recorded", "sent"),
        ("email", "email/new_pledge", "sent"),
    }
    assert logs.get(channel="sms").provider_message_id == sms.message_id
    assert logs.get(template="email/new_pledge").recipient == campaign.organizer.email


@pytest.mark.django_db(transaction=True)
def test_payments_send_an_sms_receipt_and_full_payment_a_thank_you(sms_gateway):
    campaign = CampaignFactory.create()
    pledge = pledge_of_12500(campaign)
    SimulatedSms.objects.all().delete()
    mail.outbox.clear()

    pledge_payment_record(
        pledge_id=pledge.pk, user=campaign.organizer, amount=2_500, method=Payment.Provider.CASH, note="", reference=""
    )
    [receipt] = SimulatedSms.objects.all()
    assert "Ksh 2,500" in receipt.message and "Ksh 10,000 left" in receipt.message

    pledge_payment_record(
        pledge_id=pledge.pk, user=campaign.organizer, amount=10_000, method=Payment.Provider.CASH, note="", reference=""
    )
    assert any("fully paid" in sms.message for sms in SimulatedSms.objects.all())
    assert any("fully paid" in email.subject for email in mail.outbox)


@pytest.mark.django_db
def test_sms_stay_within_two_segments_even_for_long_names_and_titles():
    campaign = CampaignFactory.create(title="A very long campaign title " * 5)
    pledge = PledgeFactory.create(campaign=campaign, name="Bartholomew Ochieng Wafula Mwangi", amount=999_999_999)

    pledge_reminder_send(pledge_id=pledge.pk, reminder_id=None)

    sms = NotificationLog.objects.get(channel="sms")
    assert "Ksh 999,999,999" in sms.body
    assert len(sms.body) < GSM7_TWO_SEGMENTS


@pytest.mark.django_db
def test_a_provider_error_is_recorded_and_retried_later_when_the_backend_can_defer(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    from django_tasks import default_task_backend

    pledge = PledgeFactory.create()
    log = NotificationLog.objects.create(channel="sms", recipient=pledge.phone, template="sms/reminder", body="Hi")

    log = notification_deliver(log_id=log.pk)

    assert (log.status, log.attempts) == (NotificationLog.Status.QUEUED, 1)
    assert "ConnectError" in log.error
    [retry] = default_task_backend.results  # type: ignore[attr-defined]
    assert retry.kwargs == {"log_id": log.pk}
    assert retry.task.run_after > timezone.now() + timedelta(seconds=30)


@pytest.mark.django_db
def test_a_message_is_failed_once_no_retry_is_left(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    from django_tasks import default_task_backend

    pledge = PledgeFactory.create()
    log = NotificationLog.objects.create(
        channel="sms", recipient=pledge.phone, template="sms/reminder", body="Hi", attempts=3
    )

    log = notification_deliver(log_id=log.pk)

    assert (log.status, log.attempts) == (NotificationLog.Status.FAILED, 4)
    assert default_task_backend.results == []  # type: ignore[attr-defined]
