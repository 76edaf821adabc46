"""The reminder scheduler, on a controlled clock (time-machine). Times are Nairobi's."""

from datetime import date, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command

from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from notifications.models import CampaignReminderSettings, NotificationLog, PledgeOptOut, Reminder
from notifications.services import opt_out_token, pledge_reminder_send, reminders_send_due
from payments.models import Payment
from pledges.services import pledge_payment_record
from pledges.tests.factories import PledgeFactory

NAIROBI = ZoneInfo("Africa/Nairobi")
PLEDGED_AT = datetime(2026, 3, 2, 10, 0, tzinfo=NAIROBI)


def at(day: int, hour: int, minute: int = 0, month: int = 3) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=NAIROBI)


@pytest.fixture
def pledge(db):
    with time_machine.travel(PLEDGED_AT, tick=False):
        return PledgeFactory.create(campaign=CampaignFactory.create(end_date=date(2026, 4, 1)), amount=12_500)


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """One scheduler run at ``moment``, its enqueued reminders sent (the immediate task backend)."""

    def run_at(moment: datetime) -> int:
        with time_machine.travel(moment, tick=False), django_capture_on_commit_callbacks(execute=True):
            return reminders_send_due(now=moment)

    return run_at


def sent_offsets(pledge) -> list[str]:
    return sorted(Reminder.objects.filter(pledge=pledge, status=Reminder.Status.SENT).values_list("offset", flat=True))


def test_reminders_fall_due_7_days_after_pledging_3_days_before_the_end_and_on_the_end_date(pledge, run):
    assert run(at(9, 9, 59)) == 0
    assert run(at(9, 10, 0)) == 1
    assert sent_offsets(pledge) == ["pledge+7"]
    assert run(at(29, 7, 59)) == 0
    assert run(at(29, 8, 0)) == 1
    assert run(at(1, 8, 0, month=4)) == 1
    assert sent_offsets(pledge) == ["end-0", "end-3", "pledge+7"]
    sms = NotificationLog.objects.filter(pledge=pledge, channel="sms", template="sms/reminder")
    emails = NotificationLog.objects.filter(pledge=pledge, channel="email", template="email/reminder")
    assert (sms.count(), emails.count()) == (3, 3)
    first = sms.earliest("created_at")
    assert pledge.code in first.body and "Ksh 12,500" in first.body


def test_the_organizer_chooses_the_offsets_of_a_campaign(pledge, run):
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, offsets=["pledge+1"])

    assert run(at(3, 10, 0)) == 1
    assert run(at(9, 10, 0)) == 0
    assert sent_offsets(pledge) == ["pledge+1"]


def test_no_reminders_when_the_organizer_turned_them_off(pledge, run):
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, enabled=False)

    assert run(at(9, 12, 0)) == 0


def test_reminders_due_in_quiet_hours_wait_for_07_00(pledge, run):
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, offsets=["pledge+7"])
    pledge.created_at = at(2, 22, 30)
    pledge.save()

    assert run(at(9, 22, 30)) == 0
    assert run(at(10, 6, 59)) == 0
    assert run(at(10, 7, 0)) == 1


def test_running_the_scheduler_twice_sends_one_reminder(pledge, run):
    assert run(at(9, 11, 0)) == 1
    assert run(at(9, 11, 5)) == 0

    assert Reminder.objects.filter(pledge=pledge).count() == 1
    assert NotificationLog.objects.filter(pledge=pledge, channel="sms").count() == 1


def test_a_reminder_job_that_runs_twice_sends_once(pledge, run):
    assert run(at(9, 11, 0)) == 1
    reminder = Reminder.objects.get(pledge=pledge)

    with time_machine.travel(at(9, 11, 1), tick=False):
        assert pledge_reminder_send(pledge_id=pledge.pk, reminder_id=reminder.pk) is False

    assert NotificationLog.objects.filter(pledge=pledge, channel="sms", template="sms/reminder").count() == 1


def test_after_a_long_pause_only_the_latest_due_reminder_is_sent(pledge, run):
    assert run(at(30, 9, 0)) == 1

    assert sent_offsets(pledge) == ["end-3"]
    assert Reminder.objects.get(pledge=pledge, offset="pledge+7").status == Reminder.Status.SKIPPED


def test_no_reminder_once_the_pledge_is_paid(pledge, run):
    with time_machine.travel(at(5, 12, 0), tick=False):
        pledge_payment_record(
            pledge_id=pledge.pk,
            user=pledge.campaign.organizer,
            amount=12_500,
            method=Payment.Provider.CASH,
            note="",
            reference="",
        )

    assert run(at(9, 12, 0)) == 0
    assert run(at(1, 8, 0, month=4)) == 0
    assert not Reminder.objects.exists()


def test_a_partly_paid_pledge_is_reminded_of_what_is_left(pledge, run):
    pledge_payment_record(
        pledge_id=pledge.pk, user=pledge.campaign.organizer, amount=2_500, method="cash", note="", reference=""
    )

    assert run(at(9, 12, 0)) == 1
    assert "Ksh 10,000" in NotificationLog.objects.get(template="sms/reminder").body


def test_no_reminder_once_the_campaign_is_closed_or_has_ended(pledge, run):
    assert run(at(2, 9, 0, month=4)) == 0  # the day after the end date
    pledge.campaign.status = CampaignStatus.CLOSED
    pledge.campaign.save()

    assert run(at(9, 12, 0)) == 0


def test_the_opt_out_link_stops_reminders(pledge, run, api_client):
    answer = api_client.get("/api/notifications/opt-out", {"token": opt_out_token(pledge)})

    assert answer.status_code == 200
    assert "You will not get any more reminders for this pledge." in answer.content.decode()
    assert PledgeOptOut.objects.filter(pledge=pledge).exists()
    assert run(at(9, 12, 0)) == 0


def test_a_tampered_opt_out_token_is_refused(pledge, api_client):
    token = opt_out_token(pledge)
    forged = f"{pledge.pk + 1}{token[token.index(':') :]}"

    answer = api_client.get("/api/notifications/opt-out", {"token": forged})

    assert answer.status_code == 400
    assert "not valid" in answer.content.decode()
    assert not PledgeOptOut.objects.exists()


def test_the_reminder_email_carries_the_opt_out_link(pledge, run):
    run(at(9, 12, 0))

    email = NotificationLog.objects.get(channel="email", template="email/reminder")
    assert "/api/notifications/opt-out?token=" in email.body


def test_the_management_command_enqueues_the_due_reminders(pledge, django_capture_on_commit_callbacks):
    out = StringIO()
    with time_machine.travel(at(9, 12, 0), tick=False), django_capture_on_commit_callbacks(execute=True):
        call_command("send_due_reminders", stdout=out)

    assert out.getvalue().strip() == "1 reminder(s) and 0 digest(s) enqueued."
    assert sent_offsets(pledge) == ["pledge+7"]
