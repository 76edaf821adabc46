"""POST /api/pledges/{id}/remind: the organizer's 'Remind' button in Pledge Management."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from accounts.tests.factories import UserFactory
from notifications.models import NotificationLog, PledgeOptOut
from pledges.models import PledgeStatus
from pledges.tests.factories import PledgeFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def pledge():
    return PledgeFactory.create()


def remind(client, pledge):
    return client.post(f"/api/pledges/{pledge.pk}/remind")


def test_the_organizer_sends_a_reminder_by_sms_and_email(
    pledge, make_api_client, django_assert_num_queries, django_capture_on_commit_callbacks
):
    client = make_api_client(signed_in_as=pledge.campaign.organizer)

    # Among them the caller's role in the organization and the pledge's 'Remind' counter: one upsert
    # (in Redis instead, when there is one).
    with django_capture_on_commit_callbacks() as callbacks, django_assert_num_queries(6):
        answer = remind(client, pledge)

    assert answer.status_code == 202
    assert answer.json() == {"detail": "Reminder sent."}
    for callback in callbacks:
        callback()
    assert set(NotificationLog.objects.values_list("template", flat=True)) == {"sms/reminder", "email/reminder"}


def test_a_reminder_asked_for_in_quiet_hours_goes_out_at_07_00(
    pledge, make_api_client, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    from django_tasks import default_task_backend

    nairobi = ZoneInfo("Africa/Nairobi")
    client = make_api_client(signed_in_as=pledge.campaign.organizer)
    with time_machine.travel(datetime(2026, 3, 9, 23, 0, tzinfo=nairobi), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            answer = remind(client, pledge)
        # Taken and counted as ever (the organizer is told it is sent: the page says when it goes).
        assert (answer.status_code, answer.json()) == (202, {"detail": "Reminder sent."})
        assert remind(client, pledge).status_code == 429
        [asked] = default_task_backend.results  # type: ignore[attr-defined]
        asked.task.call(**asked.kwargs)  # the worker, at once

    assert not NotificationLog.objects.exists()
    [_, deferred] = default_task_backend.results  # type: ignore[attr-defined]
    assert deferred.task.run_after == datetime(2026, 3, 10, 7, 0, tzinfo=nairobi)
    with time_machine.travel(deferred.task.run_after, tick=False):
        deferred.task.call(**deferred.kwargs)
    assert set(NotificationLog.objects.values_list("template", flat=True)) == {"sms/reminder", "email/reminder"}


def test_reminding_is_limited_to_once_per_pledge_per_hour(pledge, make_api_client):
    client = make_api_client(signed_in_as=pledge.campaign.organizer)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert remind(client, pledge).status_code == 202
        answer = remind(client, pledge)
        assert answer.status_code == 429
        assert answer.json()["code"] == "rate_limited"
        clock.shift(3600)
        assert remind(client, pledge).status_code == 202


def test_only_the_organizer_or_an_admin_may_remind(pledge, make_api_client, api_client):
    assert remind(api_client, pledge).status_code == 401
    assert remind(make_api_client(signed_in_as=UserFactory.create()), pledge).status_code == 403
    assert remind(make_api_client(signed_in_as=UserFactory.create(is_staff=True)), pledge).status_code == 202


def test_a_paid_pledge_is_not_reminded(make_api_client):
    pledge = PledgeFactory.create(status=PledgeStatus.CONFIRMED, paid_amount=10_000)

    answer = remind(make_api_client(signed_in_as=pledge.campaign.organizer), pledge)

    assert answer.status_code == 400
    assert answer.json()["code"] == "pledge_paid"


def test_a_pledger_who_opted_out_is_not_reminded(pledge, make_api_client):
    PledgeOptOut.objects.create(pledge=pledge)

    answer = remind(make_api_client(signed_in_as=pledge.campaign.organizer), pledge)

    assert (answer.status_code, answer.json()["code"]) == (400, "opted_out")
