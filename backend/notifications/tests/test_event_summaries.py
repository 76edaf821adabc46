"""During an open event the organizer gets no e-mail per pledge: one summary of the night's pledges
and gifts arrives when the event is closed, in the organizer's language."""

from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from campaigns.tests.factories import CampaignFactory
from events.services import event_close
from events.tests.factories import open_event
from notifications.messages import organizer_new_pledge_notify
from notifications.models import CampaignReminderSettings, NotificationLog
from pledges.models import Pledge
from pledges.tests.factories import PledgeFactory, paid_donation

pytestmark = pytest.mark.django_db


def made_at(pledge: Pledge, at) -> Pledge:
    Pledge.objects.filter(pk=pledge.pk).update(created_at=at)
    pledge.refresh_from_db()
    return pledge


def test_a_pledge_made_during_an_open_event_is_not_emailed_on_its_own():
    campaign = CampaignFactory.create()
    open_event(campaign, opened_minutes_ago=10)
    pledge = PledgeFactory.create(campaign=campaign)

    organizer_new_pledge_notify(pledge_id=pledge.pk)

    assert not NotificationLog.objects.exists()


def test_a_pledge_made_during_an_event_closed_since_is_not_emailed_either():
    campaign = CampaignFactory.create()
    event = open_event(campaign, opened_minutes_ago=60)
    pledge = made_at(PledgeFactory.create(campaign=campaign), timezone.now() - timedelta(minutes=30))
    event.closed_at = timezone.now() - timedelta(minutes=5)
    event.save()

    organizer_new_pledge_notify(pledge_id=pledge.pk)  # the task ran late: the summary has it

    assert not NotificationLog.objects.exists()


def test_pledges_before_an_event_opened_and_after_it_closed_are_emailed_at_once():
    campaign = CampaignFactory.create()
    event = open_event(campaign, opened_minutes_ago=60)
    before = made_at(PledgeFactory.create(campaign=campaign), timezone.now() - timedelta(minutes=90))
    event.closed_at = timezone.now() - timedelta(minutes=5)
    event.save()
    after = PledgeFactory.create(campaign=campaign)
    other_campaign = PledgeFactory.create()  # another campaign's event is no concern of this one

    for pledge in (before, after, other_campaign):
        organizer_new_pledge_notify(pledge_id=pledge.pk)

    assert NotificationLog.objects.filter(template="email/new_pledge").count() == 3


def test_closing_the_event_sends_the_organizer_one_summary_of_the_nights_pledges_and_gifts(
    django_capture_on_commit_callbacks,
):
    campaign = CampaignFactory.create(title="Roof & Walls")
    event = open_event(campaign, title="Harambee Sunday", opened_minutes_ago=60)
    made_at(PledgeFactory.create(campaign=campaign, name="Early Bird", amount=1_000), timezone.now() - timedelta(1))
    first = PledgeFactory.create(campaign=campaign, name="Wanjiru Kamau", amount=12_500)
    second = PledgeFactory.create(campaign=campaign, name="", phone="+254711000345", amount=2_000)
    paid_donation(campaign, name="Otieno Okoth", amount=700)
    paid_donation(campaign, name="", anonymous=True, amount=300)

    with django_capture_on_commit_callbacks(execute=True):
        event_close(user=campaign.organizer, event_id=event.pk)

    log = NotificationLog.objects.get(template="email/event_summary")
    assert (log.recipient, log.status) == (campaign.organizer.email, "sent")
    [email] = mail.outbox
    assert email.subject == "Harambee Sunday: 2 pledges, Ksh 14,500"
    assert "Harambee Sunday of Roof & Walls is closed" in email.body
    assert f"- Wanjiru Kamau: Ksh 12,500 ({first.code})" in email.body
    assert f"- Caller •••345: Ksh 2,000 ({second.code})" in email.body
    assert "Pledged: Ksh 14,500" in email.body
    assert "- Otieno Okoth: Ksh 700" in email.body
    assert "- Anonymous: Ksh 300" in email.body
    assert "Given: Ksh 1,000" in email.body
    assert "Early Bird" not in email.body
    assert isinstance(email, EmailMultiAlternatives)
    assert "Roof &amp; Walls" in str(email.alternatives[0][0])


def test_the_summary_is_in_the_organizers_language(django_capture_on_commit_callbacks):
    campaign = CampaignFactory.create()
    campaign.organizer.language = "sw"
    campaign.organizer.save()
    event = open_event(campaign, title="Harambee", opened_minutes_ago=5)
    PledgeFactory.create(campaign=campaign, amount=5_000)

    with django_capture_on_commit_callbacks(execute=True):
        event_close(user=campaign.organizer, event_id=event.pk)

    [email] = mail.outbox
    assert email.subject == "Harambee: ahadi 1, Ksh 5,000"
    assert "Ahadi" in email.body


def test_an_organizer_on_the_daily_digest_gets_no_summary(django_capture_on_commit_callbacks):
    campaign = CampaignFactory.create()
    CampaignReminderSettings.objects.create(campaign=campaign, new_pledge_digest=True)
    event = open_event(campaign, opened_minutes_ago=5)
    PledgeFactory.create(campaign=campaign)

    with django_capture_on_commit_callbacks(execute=True):
        event_close(user=campaign.organizer, event_id=event.pk)

    assert not NotificationLog.objects.exists()


def test_a_night_without_pledges_or_gifts_still_gets_its_summary(django_capture_on_commit_callbacks):
    campaign = CampaignFactory.create()
    event = open_event(campaign, title="Quiet night", opened_minutes_ago=5)

    with django_capture_on_commit_callbacks(execute=True):
        event_close(user=campaign.organizer, event_id=event.pk)

    [email] = mail.outbox
    assert email.subject == "Quiet night: 0 pledges, Ksh 0"
    assert "No pledges." in email.body and "No gifts." in email.body
