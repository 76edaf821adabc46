"""The thank-you message of a closed event through HTTP: each giver once, opt-outs left out, none at
night, within each recipient's limits, never twice, audited, for owners and treasurers only."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from audit.models import AuditAction, AuditEntry
from campaigns.tests.factories import CampaignFactory
from desk.tests.test_desk_api import entry, member_client, passcode_client
from events.models import Event
from events.tests.factories import open_event
from notifications.models import EventThanks, NotificationLog, PledgeOptOut
from organizations.roles import Role
from pledges.models import Donation
from pledges.tests.factories import make_pledge, paid_donation

pytestmark = pytest.mark.django_db

NAIROBI = ZoneInfo("Africa/Nairobi")
AFTERNOON = datetime(2026, 3, 8, 15, 0, tzinfo=NAIROBI)
TEXT = "Asante sana for giving tonight! God bless you. - St. Mark's"


@pytest.fixture
def event(campaign):
    with time_machine.travel(AFTERNOON - timedelta(hours=2), tick=False):
        return open_event(campaign)


@pytest.fixture
def afternoon():
    with time_machine.travel(AFTERNOON, tick=True):
        yield


def close(event):
    Event.objects.filter(pk=event.pk).update(closed_at=timezone.now())


def thank(client, event, text=TEXT):
    return client.post(f"/api/events/{event.pk}/thanks", {"text": text})


def thanks_sent(template="sms/event_thanks"):
    return sorted(NotificationLog.objects.filter(template=template).values_list("recipient", "body"))


@pytest.mark.usefixtures("afternoon")
def test_each_giver_is_thanked_once_by_sms_or_by_e_mail_where_they_gave_no_number(
    campaign, event, organizer_client, django_capture_on_commit_callbacks
):
    entry(organizer_client, event, amount=2_000, phone="0712000001")
    entry(organizer_client, event, kind="cash", amount=500, phone="0712000001")
    entry(organizer_client, event, kind="cash", amount=300, phone="")
    make_pledge(campaign, phone="0712000002", email="otieno@example.com")
    paid_donation(campaign, email="Card.Giver@Example.com")
    close(event)

    with django_capture_on_commit_callbacks(execute=True):
        answer = thank(organizer_client, event)

    assert answer.status_code == 202, answer.content
    assert answer.json() == {"queued": 3, "already_thanked": 0, "opted_out": 0, "no_contact": 1}
    assert thanks_sent() == [("+254712000001", TEXT), ("+254712000002", TEXT)]
    assert thanks_sent("email/event_thanks") == [("card.giver@example.com", TEXT)]
    email = NotificationLog.objects.get(template="email/event_thanks")
    # A personal organization, named after the organizer: thanked by the campaign, never by a person's name.
    assert email.subject == f"Thank you from {campaign.title}"
    entry_ = AuditEntry.objects.get(action=AuditAction.EVENT_THANKS_SENT)
    assert (entry_.actor, entry_.after["queued"], entry_.after["text"]) == (campaign.organizer, 3, TEXT)
    report = organizer_client.get(f"/api/events/{event.pk}/report").json()
    assert report["thanks"]["total"] == 3


@pytest.mark.usefixtures("afternoon")
def test_sending_again_thanks_nobody_twice_only_givers_a_desk_delivered_late(
    campaign, event, organizer_client, django_capture_on_commit_callbacks
):
    entry(organizer_client, event, amount=2_000, phone="0712000001")
    close(event)
    with django_capture_on_commit_callbacks(execute=True):
        assert thank(organizer_client, event).json()["queued"] == 1
        again = thank(organizer_client, event, text="Another text")
    assert again.json() == {"queued": 0, "already_thanked": 1, "opted_out": 0, "no_contact": 0}

    entry(organizer_client, event, amount=1_000, phone="0712000003")  # an offline desk, after the close
    with django_capture_on_commit_callbacks(execute=True):
        late = thank(organizer_client, event, text="Another text")

    assert late.json() == {"queued": 1, "already_thanked": 1, "opted_out": 0, "no_contact": 0}
    assert thanks_sent() == [("+254712000001", TEXT), ("+254712000003", "Another text")]
    assert EventThanks.objects.count() == 2


@pytest.mark.usefixtures("afternoon")
def test_a_giver_who_opted_out_of_reminders_is_left_out(
    campaign, event, organizer_client, django_capture_on_commit_callbacks
):
    other = CampaignFactory.create()
    with time_machine.travel(AFTERNOON - timedelta(days=3)):
        stopped = make_pledge(other, phone="0712000004", email="stopped@example.com")
    PledgeOptOut.objects.create(pledge=stopped)
    entry(organizer_client, event, amount=2_000, phone="0712000004")
    make_pledge(campaign, phone="0712000005", email="fine@example.com")
    close(event)

    with django_capture_on_commit_callbacks(execute=True):
        answer = thank(organizer_client, event)

    assert answer.json() == {"queued": 1, "already_thanked": 0, "opted_out": 1, "no_contact": 0}
    assert [recipient for recipient, _body in thanks_sent()] == ["+254712000005"]


def test_thanks_sent_at_night_go_out_in_the_morning(
    campaign, event, organizer_client, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    from django_tasks import default_task_backend

    with time_machine.travel(AFTERNOON, tick=False):
        make_pledge(campaign, phone="0712000006", email="night@example.com")
    night = datetime(2026, 3, 8, 22, 30, tzinfo=NAIROBI)
    with time_machine.travel(night, tick=False):
        close(event)
        with django_capture_on_commit_callbacks(execute=True):
            assert thank(organizer_client, event).status_code == 202
        taken = next(r for r in default_task_backend.results if r.task.name == "send_event_thanks")  # type: ignore[attr-defined]
        taken.task.call(**taken.kwargs)

    assert not thanks_sent()
    deferred = [r for r in default_task_backend.results if r.task.name == "send_event_thanks"][-1]  # type: ignore[attr-defined]
    assert deferred.task.run_after == datetime(2026, 3, 9, 7, 0, tzinfo=NAIROBI)
    with time_machine.travel(deferred.task.run_after, tick=False):
        deferred.task.call(**deferred.kwargs)
        deferred.task.call(**deferred.kwargs)  # a job run twice sends nothing twice
    assert thanks_sent() == [("+254712000006", TEXT)]


@pytest.mark.usefixtures("afternoon")
def test_a_recipient_past_their_limit_of_unasked_messages_is_not_thanked_and_the_report_says_so(
    campaign, event, organizer_client, settings, django_capture_on_commit_callbacks
):
    settings.RATE_LIMIT_UNASKED_MESSAGES_HOUR = (1, 3600)
    with django_capture_on_commit_callbacks(execute=True):
        entry(organizer_client, event, amount=2_000, phone="0712000007")  # its pledge SMS: the hour's one
    close(event)

    with django_capture_on_commit_callbacks(execute=True):
        assert thank(organizer_client, event).json()["queued"] == 1

    log = NotificationLog.objects.get(template="sms/event_thanks")
    assert log.status == NotificationLog.Status.LIMITED
    thanks = organizer_client.get(f"/api/events/{event.pk}/report").json()["thanks"]
    assert thanks == {"total": 1, "waiting": 0, "sent": 0, "limited": 1, "failed": 0}


@pytest.mark.usefixtures("afternoon")
def test_thanks_wait_for_the_close(campaign, event, organizer_client):
    answer = thank(organizer_client, event)

    assert (answer.status_code, answer.json()["code"]) == (400, "event_not_closed")


@pytest.mark.usefixtures("afternoon")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Write the message: it goes to the givers as one SMS."),
        ("   ", "Write the message: it goes to the givers as one SMS."),
        ("x" * 161, "The message is 1 characters too long for one SMS (160 at most)."),
        ("[x]" + "x" * 156, "The message is 1 characters too long for one SMS (160 at most)."),
        (
            "Asante sana \U0001f64f " + "x" * 56,
            "The message is 1 characters too long for one SMS: with \U0001f64f, which the SMS alphabet lacks, "
            "one SMS holds 70 characters.",
        ),
    ],
)
def test_the_message_fits_one_sms_by_its_encoding_and_is_not_empty(campaign, event, organizer_client, text, message):
    close(event)

    answer = thank(organizer_client, event, text=text)

    assert answer.status_code == 422
    assert answer.json()["field_errors"]["text"] == message
    assert not EventThanks.objects.exists()


@pytest.mark.usefixtures("afternoon")
# An ellipsis or a dash the organizer's keyboard put in goes as GSM characters: 160 still fit.
@pytest.mark.parametrize(
    "text",
    ["x" * 160, "[x]" + "x" * 155, "Asante sana \U0001f64f " + "x" * 55, "Night \u2013 Roofing\u2026 " + "x" * 141],
)
def test_a_message_that_fills_one_sms_exactly_is_sent(campaign, event, organizer_client, text):
    close(event)

    assert thank(organizer_client, event, text=text).status_code == 202


@pytest.mark.usefixtures("afternoon")
@pytest.mark.parametrize(("role", "status"), [(Role.TREASURER, 202), (Role.USHER, 403), (Role.VIEWER, 403)])
def test_owners_and_treasurers_thank_the_givers(campaign, event, make_api_client, role, status):
    client = member_client(campaign, make_api_client, role)
    close(event)

    assert thank(client, event).status_code == status


@pytest.mark.usefixtures("afternoon")
def test_a_desk_passcode_cannot_thank_the_givers(campaign, event, organizer_client, make_api_client):
    volunteer = passcode_client(organizer_client, make_api_client, event)
    close(event)

    assert thank(volunteer, event).status_code == 401
    assert not Donation.objects.exists()
