"""POST /api/campaigns/{id}/champions/{code}/remind: a champion's 'Remind my circle'."""

import pytest

from accounts.tests.factories import UserFactory
from campaigns.tests.conftest import campaign, member, member_client, organizer, organizer_client
from champions.services import champion_pledge_create
from champions.tests.support import a_champion
from notifications.circle_reminders import circle_reminder_send
from notifications.models import NotificationLog, PledgeOptOut
from notifications.outbox import notification_queue_sms
from pledges.models import Pledge

pytestmark = pytest.mark.django_db
__all__ = ["campaign", "member", "member_client", "organizer", "organizer_client"]


def pledge_through(champion, *, name: str, phone: str, amount: int = 3_000) -> Pledge:
    return champion_pledge_create(
        campaign_id=champion.campaign_id,
        code=champion.code,
        amount=amount,
        name=name,
        email=f"{name.split()[0].lower()}@example.com",
        phone=phone,
        is_anonymous=False,
        viewer=None,
        client_ip="",
    )


def remind(client, champion):
    return client.post(f"/api/campaigns/{champion.campaign_id}/champions/{champion.code}/remind")


def test_the_champion_reminds_who_still_owes_and_skips_the_opted_out_and_the_recently_reminded(
    campaign, member, member_client, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    champion = a_champion(campaign, member)
    owing = pledge_through(champion, name="Kamau Njoroge", phone="0712000701")
    opted_out = pledge_through(champion, name="Otieno Were", phone="0712000702")
    PledgeOptOut.objects.create(pledge=opted_out)
    reminded = pledge_through(champion, name="Akinyi Odera", phone="0712000703")
    notification_queue_sms(to=reminded.phone, template="reminder", context={"pledge": reminded}, pledge=reminded)
    cancelled = pledge_through(champion, name="Mutua Kioko", phone="0712000704")
    Pledge.objects.filter(pk=cancelled.pk).update(cancelled_at=cancelled.created_at)

    with django_capture_on_commit_callbacks(execute=True), django_assert_max_num_queries(12):
        answer = remind(member_client, champion)

    assert (answer.status_code, answer.json()) == (202, {"sent": 1, "skipped": 2})
    [sms] = NotificationLog.objects.filter(template="sms/circle_reminder")
    assert sms.recipient == owing.phone and sms.pledge_id == owing.pk
    assert sms.body.startswith("Amina Hassan reminds you: Ksh 3,000 left on pledge")


def test_pressing_it_again_within_the_hour_is_refused(campaign, member, member_client):
    champion = a_champion(campaign, member)
    pledge_through(champion, name="Kamau Njoroge", phone="0712000711")
    assert remind(member_client, champion).status_code == 202
    again = remind(member_client, champion)
    assert again.status_code == 429 and again.json()["code"] == "rate_limited"


def test_only_the_champion_or_those_who_manage_pledges_remind_the_circle(
    campaign, member, organizer, organizer_client, make_api_client
):
    champion = a_champion(campaign, member)
    someone = make_api_client(signed_in_as=UserFactory.create())
    denied = remind(someone, champion)
    assert denied.status_code == 403 and denied.json()["code"] == "not_champion"
    assert remind(organizer_client, champion).status_code == 202


def test_a_reminder_whose_pledge_was_cancelled_before_its_turn_is_not_sent(campaign, member):
    champion = a_champion(campaign, member)
    pledge = pledge_through(champion, name="Kamau Njoroge", phone="0712000721")
    Pledge.objects.filter(pk=pledge.pk).update(cancelled_at=pledge.created_at)

    assert circle_reminder_send(pledge_id=pledge.pk, champion_id=champion.pk) is False
    assert not NotificationLog.objects.filter(template="sms/circle_reminder").exists()
