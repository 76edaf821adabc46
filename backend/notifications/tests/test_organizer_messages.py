"""Messages to organizers: a new pledge (at once, unless they chose the daily digest) and their
campaign going live once its activation fee is paid."""

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives

from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from notifications.messages import organizer_new_pledge_notify
from notifications.models import CampaignReminderSettings, NotificationLog
from payments.models import Payment
from payments.services import payment_record_stk_callback
from payments.tests.support import pending_stk_intent, stk_callback
from pledges.tests.factories import PledgeFactory

pytestmark = pytest.mark.django_db


def test_the_organizer_is_emailed_each_new_pledge_with_its_amount_in_ksh(settings):
    settings.SITE_URL = "https://harambee.example"
    campaign = CampaignFactory.create(title="Roof & Walls")
    pledge = PledgeFactory.create(campaign=campaign, name="Wanjiru Kamau", amount=12_500)

    organizer_new_pledge_notify(pledge_id=pledge.pk)

    log = NotificationLog.objects.get()
    assert (log.template, log.recipient, log.pledge, log.status) == (
        "email/new_pledge",
        campaign.organizer.email,
        pledge,
        "sent",
    )
    [email] = mail.outbox
    assert email.subject == "New pledge: Ksh 12,500 to Roof & Walls"
    assert "Wanjiru Kamau pledged Ksh 12,500" in email.body
    assert "New pledge to Roof & Walls" in email.body  # plain text is not HTML-escaped
    assert pledge.code in email.body
    assert f"https://harambee.example/campaign/{campaign.pk}" in email.body
    assert isinstance(email, EmailMultiAlternatives)
    assert "Roof &amp; Walls" in str(email.alternatives[0][0])


def test_an_organizer_who_chose_the_daily_digest_gets_no_email_per_pledge():
    pledge = PledgeFactory.create()
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, new_pledge_digest=True)

    organizer_new_pledge_notify(pledge_id=pledge.pk)

    assert NotificationLog.objects.count() == 0


def test_a_pledge_enqueues_the_organizer_email_after_the_commit(django_capture_on_commit_callbacks):
    from pledges.services import pledge_create

    campaign = CampaignFactory.create()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        pledge = pledge_create(
            campaign_id=campaign.pk,
            amount=5_000,
            name="Otieno",
            email="otieno@example.com",
            phone="0712345678",
            is_anonymous=True,
            viewer=None,
            client_ip="10.0.0.1",
        )

    assert not NotificationLog.objects.filter(template="email/new_pledge").exists()
    for callback in callbacks:
        callback()
    organizer_email = NotificationLog.objects.get(template="email/new_pledge")
    assert (organizer_email.recipient, organizer_email.pledge) == (campaign.organizer.email, pledge)
    assert "Otieno" in organizer_email.body  # the organizer sees who pledged, even anonymously
    assert "anonymous on the public page" in organizer_email.body


def pay_activation_fee(campaign, *, checkout_request_id="ws_CO_ACTIVATION1", receipt="SLK0000001"):
    pending_stk_intent(
        purpose=Payment.Purpose.CAMPAIGN_ACTIVATION,
        campaign=campaign,
        user=campaign.organizer,
        amount=1_000,
        checkout_request_id=checkout_request_id,
    )
    payment_record_stk_callback(
        body=stk_callback(checkout_request_id, amount=1_000, receipt=receipt), remote_addr="127.0.0.1"
    )


def test_a_paid_activation_fee_emails_the_organizer_that_the_campaign_is_live(django_capture_on_commit_callbacks):
    campaign = CampaignFactory.create(status=CampaignStatus.PENDING, title="New church roof")

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        pay_activation_fee(campaign)

    assert not NotificationLog.objects.filter(template="email/campaign_activated").exists()
    for callback in callbacks:
        callback()
    log = NotificationLog.objects.get(template="email/campaign_activated")
    assert (log.recipient, log.status) == (campaign.organizer.email, "sent")
    assert log.payment is not None and log.payment.purpose == Payment.Purpose.CAMPAIGN_ACTIVATION
    email = next(message for message in mail.outbox if message.subject == "New church roof is now live")
    assert "Your activation payment of Ksh 1,000 was received" in email.body


def test_an_activation_fee_paid_twice_sends_one_live_email(django_capture_on_commit_callbacks):
    campaign = CampaignFactory.create(status=CampaignStatus.PENDING)

    with django_capture_on_commit_callbacks(execute=True):
        pay_activation_fee(campaign)
        pay_activation_fee(campaign, checkout_request_id="ws_CO_ACTIVATION2", receipt="SLK0000002")

    assert NotificationLog.objects.filter(template="email/campaign_activated").count() == 1
