"""The reminder scheduler, on a controlled clock (time-machine). Times are Nairobi's."""

from datetime import date, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.test import Client

from campaigns.models import CampaignStatus
from campaigns.services import campaign_update
from campaigns.tests.factories import CampaignFactory
from notifications.models import CampaignReminderSettings, NotificationLog, PledgeOptOut, Reminder
from notifications.reminders import pledge_reminder_send, reminders_send_due
from notifications.selectors import opt_out_token
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


def test_quiet_hours_follow_the_setting_and_can_be_turned_off(pledge, run, settings):
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, offsets=["pledge+7"])
    pledge.created_at = at(2, 19, 30)
    pledge.save()
    settings.REMINDER_QUIET_HOURS = (19, 8)
    assert run(at(9, 19, 30)) == 0
    assert run(at(10, 7, 59)) == 0

    settings.REMINDER_QUIET_HOURS = None
    assert run(at(10, 2, 0)) == 1


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


def test_of_two_reminders_due_at_once_only_the_latest_is_sent(db, run):
    with time_machine.travel(PLEDGED_AT, tick=False):
        # Ends a week after the week's reminder: 'end-7' falls due at 08:00, 'pledge+7' at 10:00.
        pledge = PledgeFactory.create(campaign=CampaignFactory.create(end_date=date(2026, 3, 16)))
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, offsets=["pledge+7", "end-7"])

    assert run(at(9, 11, 0)) == 1  # the scheduler was down from 07:00

    assert sent_offsets(pledge) == ["pledge+7"]
    assert Reminder.objects.get(pledge=pledge, offset="end-7").status == Reminder.Status.SKIPPED


def test_a_reminder_goes_out_within_a_day_of_falling_due_not_after_a_long_pause(pledge, run):
    assert run(at(30, 9, 0)) == 0  # 'pledge+7' three weeks late, 'end-3' 25 hours late

    assert not Reminder.objects.exists()
    assert run(at(1, 8, 0, month=4)) == 1
    assert sent_offsets(pledge) == ["end-0"]


def test_a_reminder_due_in_the_evening_goes_out_the_next_morning(pledge, run):
    pledge.created_at = at(2, 20, 30)
    pledge.save()

    assert run(at(9, 20, 29)) == 0
    # The scheduler is not run again before quiet hours start (or is down until the morning).
    assert run(at(10, 7, 0)) == 1
    assert sent_offsets(pledge) == ["pledge+7"]


def test_adding_an_offset_later_does_not_remind_older_pledges_of_it(pledge, run):
    assert run(at(9, 10, 0)) == 1  # 'pledge+7'

    CampaignReminderSettings.objects.create(campaign=pledge.campaign, offsets=["pledge+1", "pledge+3", "pledge+7"])

    assert run(at(10, 9, 0)) == 0
    assert sent_offsets(pledge) == ["pledge+7"]
    assert not Reminder.objects.filter(offset__in=["pledge+1", "pledge+3"]).exists()


def test_reminders_turned_back_on_do_not_send_the_ones_missed_meanwhile(pledge, run):
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, enabled=False)
    assert run(at(9, 12, 0)) == 0

    CampaignReminderSettings.objects.filter(campaign=pledge.campaign).update(enabled=True)

    assert run(at(20, 12, 0)) == 0
    assert run(at(29, 8, 0)) == 1
    assert sent_offsets(pledge) == ["end-3"]


def test_an_offset_added_the_day_it_falls_is_not_sent_after_a_later_one_went(db, run):
    with time_machine.travel(PLEDGED_AT, tick=False):
        pledge = PledgeFactory.create(campaign=CampaignFactory.create(end_date=date(2026, 3, 16)))
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, offsets=["pledge+7"])
    assert run(at(9, 10, 0)) == 1

    # 'end-7' fell due at 08:00, before the reminder the pledger had at 10:00: it would repeat it.
    CampaignReminderSettings.objects.filter(campaign=pledge.campaign).update(offsets=["pledge+7", "end-7"])

    assert run(at(9, 12, 0)) == 0
    assert sent_offsets(pledge) == ["pledge+7"]


def test_an_offset_saved_outside_the_choices_is_ignored(pledge, run):
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, offsets=["pledge+2", "pledge+7"])

    assert run(at(4, 12, 0)) == 0
    assert run(at(9, 12, 0)) == 1
    assert sent_offsets(pledge) == ["pledge+7"]


@pytest.fixture
def deferring_backend(settings):
    """A task backend that keeps what is enqueued (and may defer it), for the test to run."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    from django_tasks import default_task_backend

    return default_task_backend


def test_a_reminder_taken_on_before_21_00_but_run_in_quiet_hours_waits_for_07_00(
    pledge, deferring_backend, django_capture_on_commit_callbacks
):
    with time_machine.travel(at(9, 20, 59), tick=False), django_capture_on_commit_callbacks(execute=True):
        assert reminders_send_due(now=at(9, 20, 59)) == 1
    [taken] = deferring_backend.results

    with time_machine.travel(at(9, 21, 5), tick=False):  # a busy worker gets to it late
        assert taken.task.call(**taken.kwargs) is None

    assert not NotificationLog.objects.exists()
    assert Reminder.objects.get(pledge=pledge).status == Reminder.Status.SCHEDULED
    [_, deferred] = deferring_backend.results
    assert (deferred.task.run_after, deferred.kwargs) == (at(10, 7, 0), taken.kwargs)
    with time_machine.travel(deferred.task.run_after, tick=False):
        deferred.task.call(**deferred.kwargs)
    assert sent_offsets(pledge) == ["pledge+7"]
    assert NotificationLog.objects.filter(pledge=pledge, template__endswith="/reminder").count() == 2


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


OPT_OUT = "/api/notifications/opt-out"


def test_the_opt_out_link_asks_first_and_only_its_button_stops_reminders(pledge, run):
    browser = Client(enforce_csrf_checks=True)
    token = opt_out_token(pledge)

    page = browser.get(OPT_OUT, {"token": token})

    # Following the link (as a mail scanner does) changes nothing.
    assert page.status_code == 200
    assert f"Stop the reminders about your pledge {pledge.code} to {pledge.campaign.title}?" in page.text
    assert f'<form method="post" action="?token={token.replace(":", "%3A")}">' in page.text
    assert not PledgeOptOut.objects.exists()

    # The button posts the form back to the same link, with no JavaScript and no CSRF token.
    answer = browser.post(f"{OPT_OUT}?token={token}")

    assert answer.status_code == 200
    assert "You will not get any more reminders for this pledge." in answer.text
    assert PledgeOptOut.objects.filter(pledge=pledge).exists()
    assert "<form" not in browser.get(OPT_OUT, {"token": token}).text
    assert run(at(9, 12, 0)) == 0


def test_a_tampered_opt_out_token_is_refused(pledge):
    token = opt_out_token(pledge)
    forged = f"{pledge.pk + 1}{token[token.index(':') :]}"

    page = Client().get(OPT_OUT, {"token": forged})
    answer = Client().post(f"{OPT_OUT}?token={forged}")

    assert (page.status_code, answer.status_code) == (400, 400)
    assert "This link is not valid." in page.text and "This link is not valid." in answer.text
    assert "<form" not in page.text
    assert not PledgeOptOut.objects.exists()


def test_the_opt_out_page_is_in_the_pledge_s_language_not_the_browser_s(db):
    pledge = PledgeFactory.create(language="sw")
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")

    page = browser.get(OPT_OUT, {"token": opt_out_token(pledge)}).text
    answer = browser.post(f"{OPT_OUT}?token={opt_out_token(pledge)}").text

    assert '<html lang="sw">' in page and "Simamisha vikumbusho" in page
    assert '<html lang="sw">' in answer and "Hutapata tena vikumbusho vya ahadi hii." in answer
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(OPT_OUT, {"token": "forged"}).text
    assert '<html lang="en">' in english


def test_the_reminder_email_carries_the_opt_out_link_and_one_click_unsubscribe(pledge, run, settings):
    settings.SITE_URL = "https://harambee.example"
    run(at(9, 12, 0))

    log = NotificationLog.objects.get(channel="email", template="email/reminder")
    with time_machine.travel(at(9, 12, 0), tick=False):  # the token carries the time it was made
        link = f"https://harambee.example{OPT_OUT}?token={opt_out_token(pledge)}"
    assert link in log.body
    [email] = mail.outbox
    assert email.extra_headers == {
        "List-Unsubscribe": f"<{link}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    message = email.message()
    assert (message["List-Unsubscribe"], message["List-Unsubscribe-Post"]) == (
        f"<{link}>",
        "List-Unsubscribe=One-Click",
    )

    # The mail program's one-click POST (RFC 8058): no cookie, no CSRF token.
    one_click = Client(enforce_csrf_checks=True).post(
        link.removeprefix("https://harambee.example"),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )

    assert one_click.status_code == 200
    assert PledgeOptOut.objects.filter(pledge=pledge).exists()


def test_the_management_command_enqueues_the_due_reminders(pledge, django_capture_on_commit_callbacks):
    out = StringIO()
    with time_machine.travel(at(9, 12, 0), tick=False), django_capture_on_commit_callbacks(execute=True):
        call_command("send_due_reminders", stdout=out)

    assert out.getvalue().strip() == "1 reminder(s) and 0 digest(s) enqueued."
    assert sent_offsets(pledge) == ["pledge+7"]


def _move_end_date(pledge, moment: datetime, end_date: date, django_capture_on_commit_callbacks) -> None:
    """The organizer moves the campaign's end date at ``moment`` (the service, its signal after commit)."""
    with time_machine.travel(moment, tick=False), django_capture_on_commit_callbacks(execute=True):
        campaign_update(campaign=pledge.campaign, user=pledge.campaign.organizer, end_date=end_date)
    pledge.refresh_from_db()


def test_an_extended_campaign_reminds_before_its_new_end_not_its_old_one(
    pledge, run, django_capture_on_commit_callbacks
):
    _move_end_date(pledge, at(20, 12, 0), date(2026, 4, 20), django_capture_on_commit_callbacks)

    assert run(at(29, 8, 0)) == 0  # three days before the old end
    assert run(at(17, 8, 0, month=4)) == 1
    assert sent_offsets(pledge) == ["end-3"]


def test_a_reminder_sent_before_the_end_date_moved_is_not_sent_again(pledge, run, django_capture_on_commit_callbacks):
    assert run(at(29, 8, 0)) == 1  # 'end-3' of the old end date

    _move_end_date(pledge, at(30, 12, 0), date(2026, 4, 20), django_capture_on_commit_callbacks)

    assert run(at(17, 8, 0, month=4)) == 0
    assert run(at(20, 8, 0, month=4)) == 1
    assert sent_offsets(pledge) == ["end-0", "end-3"]


def test_a_reminder_skipped_beside_a_later_one_falls_due_again_at_the_new_end_date(
    db, run, django_capture_on_commit_callbacks
):
    with time_machine.travel(PLEDGED_AT, tick=False):
        pledge = PledgeFactory.create(campaign=CampaignFactory.create(end_date=date(2026, 3, 16)))
    CampaignReminderSettings.objects.create(campaign=pledge.campaign, offsets=["pledge+7", "end-7"])
    assert run(at(9, 11, 0)) == 1  # 'pledge+7' sent, 'end-7' skipped beside it

    _move_end_date(pledge, at(10, 12, 0), date(2026, 4, 16), django_capture_on_commit_callbacks)

    assert run(at(9, 8, 0, month=4)) == 1
    assert sent_offsets(pledge) == ["end-7", "pledge+7"]


def test_a_shortened_campaign_reminds_before_its_new_end(pledge, run, django_capture_on_commit_callbacks):
    _move_end_date(pledge, at(5, 12, 0), date(2026, 3, 12), django_capture_on_commit_callbacks)

    assert run(at(9, 8, 0)) == 1
    assert run(at(29, 8, 0)) == 0
    assert sent_offsets(pledge) == ["end-3"]


@pytest.mark.parametrize(
    ("channel", "language", "pay"),
    [
        ("ussd", "en", "Pay: dial *384*4242# or text PAY {code} to 22384."),
        ("sms", "sw", "Lipa: piga *384*4242# au tuma LIPA {code} kwa 22384."),
        ("web", "en", "Pay: http://testserver/pledges/{code}"),
    ],
)
def test_a_reminder_says_how_to_pay_on_the_channel_the_pledge_was_made(db, settings, channel, language, pay):
    settings.REMINDER_QUIET_HOURS = None
    settings.SITE_URL = "http://testserver"
    pledge = PledgeFactory.create(channel=channel, language=language)

    assert pledge_reminder_send(pledge_id=pledge.pk, reminder_id=None)

    sms = NotificationLog.objects.get(template="sms/reminder")
    assert sms.body.endswith(pay.format(code=pledge.code))
