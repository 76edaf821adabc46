"""The scheduler command's --now option: the end-to-end tests advance the clock with it."""

from datetime import date, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import CommandError, call_command

from campaigns.tests.factories import CampaignFactory
from notifications.models import Reminder
from pledges.tests.factories import PledgeFactory

NAIROBI = ZoneInfo("Africa/Nairobi")


@pytest.mark.django_db
def test_send_due_reminders_acts_at_the_moment_given_by_now_not_the_system_clock(django_capture_on_commit_callbacks):
    with time_machine.travel(datetime(2026, 3, 2, 10, 0, tzinfo=NAIROBI), tick=False):
        pledge = PledgeFactory.create(campaign=CampaignFactory.create(end_date=date(2026, 4, 1)))
        out = StringIO()
        with django_capture_on_commit_callbacks(execute=True):
            call_command("send_due_reminders", "--now", "2026-03-09T12:00:00+03:00", stdout=out)

    assert out.getvalue().strip() == "1 reminder(s) and 0 digest(s) enqueued."
    assert list(Reminder.objects.filter(pledge=pledge).values_list("offset", flat=True)) == ["pledge+7"]


def test_send_due_reminders_refuses_a_now_without_a_time_zone():
    with pytest.raises(CommandError, match="--now"):
        call_command("send_due_reminders", "--now", "2026-03-10T10:00:00")
