"""Two schedulers running at the same moment. PostgreSQL only: SQLite serialises every write."""

import threading
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection

from campaigns.tests.factories import CampaignFactory
from notifications.models import NotificationLog, Reminder
from notifications.reminders import reminders_send_due
from pledges.tests.factories import PledgeFactory

NAIROBI = ZoneInfo("Africa/Nairobi")

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (concurrent writers)"),
]


def test_two_schedulers_at_once_send_each_reminder_once():
    with time_machine.travel(datetime(2026, 3, 2, 10, 0, tzinfo=NAIROBI), tick=False):
        campaign = CampaignFactory.create(end_date=date(2026, 4, 1))
        pledges = PledgeFactory.create_batch(20, campaign=campaign)
    now = datetime(2026, 3, 9, 12, 0, tzinfo=NAIROBI)
    start = threading.Barrier(2)
    counts: list[int] = []
    errors: list[BaseException] = []

    def scheduler() -> None:
        try:
            start.wait()
            counts.append(reminders_send_due(now=now))
        except BaseException as error:  # reported by the assertions below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert sum(counts) == len(pledges)
    assert Reminder.objects.count() == len(pledges)
    assert NotificationLog.objects.filter(channel="sms", template="sms/reminder").count() == len(pledges)
