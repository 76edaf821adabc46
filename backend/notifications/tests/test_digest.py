"""The organizers' daily digest of new pledges, on a controlled clock. Times are Nairobi's."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail

from campaigns.tests.factories import CampaignFactory
from notifications.digests import pledge_digests_send_due
from notifications.messages import organizer_new_pledge_notify
from notifications.models import CampaignReminderSettings, NotificationLog, PledgeDigest
from notifications.reminders import reminder_settings_update
from pledges.tests.factories import PledgeFactory

NAIROBI = ZoneInfo("Africa/Nairobi")


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=NAIROBI)


@pytest.fixture
def campaign(db):
    campaign = CampaignFactory.create(title="New church roof")
    CampaignReminderSettings.objects.create(campaign=campaign, new_pledge_digest=True)
    return campaign


def pledge_at(moment: datetime, campaign, **fields):
    with time_machine.travel(moment, tick=False):
        return PledgeFactory.create(campaign=campaign, **fields)


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """One scheduler run at ``moment``, its enqueued digests sent (the immediate task backend)."""

    def run_at(moment: datetime) -> int:
        with time_machine.travel(moment, tick=False), django_capture_on_commit_callbacks(execute=True):
            return pledge_digests_send_due(now=moment)

    return run_at


def digests() -> list[NotificationLog]:
    return list(NotificationLog.objects.filter(template="email/pledge_digest").order_by("pk"))


def test_the_digest_lists_the_days_pledges_in_ksh_once_at_six_in_the_evening(campaign, run):
    pledge_at(at(2, 9), campaign, name="Wanjiru Kamau", amount=12_500)
    pledge_at(at(2, 17), campaign, name="Otieno Odhiambo", amount=1_000)

    assert run(at(2, 17, 59)) == 0
    assert run(at(2, 18, 0)) == 1

    [log] = digests()
    assert (log.recipient, log.status) == (campaign.organizer.email, "sent")
    assert log.subject == "2 new pledges to New church roof"
    assert "Wanjiru Kamau: Ksh 12,500" in log.body
    assert "Otieno Odhiambo: Ksh 1,000" in log.body
    assert "Total: Ksh 13,500" in log.body
    assert [message.subject for message in mail.outbox] == [log.subject]


def test_running_the_scheduler_again_the_same_day_sends_no_second_digest(campaign, run):
    pledge_at(at(2, 9), campaign)

    assert run(at(2, 18, 0)) == 1
    assert run(at(2, 18, 5)) == 0
    pledge_at(at(2, 19), campaign)  # after today's digest: tomorrow's
    assert run(at(2, 20, 55)) == 0

    assert len(digests()) == 1
    assert PledgeDigest.objects.count() == 1


def test_the_next_digest_starts_where_the_last_ended(campaign, run):
    first = pledge_at(at(2, 9), campaign)
    late = pledge_at(at(2, 18, 30), campaign)
    run(at(2, 18, 45))

    assert run(at(3, 18, 0)) == 1

    earlier, later = digests()
    assert first.code in earlier.body and late.code not in earlier.body
    assert late.code in later.body and first.code not in later.body
    assert later.subject == "1 new pledge to New church roof"


def test_no_digest_in_quiet_hours_and_a_missed_day_is_caught_up_the_next(campaign, run):
    pledge_at(at(1, 9), campaign)
    run(at(1, 18, 0))
    pledge = pledge_at(at(2, 9), campaign)

    assert run(at(2, 21, 0)) == 0  # the scheduler was down from 18:00 to 21:00
    assert run(at(3, 7, 0)) == 0  # morning: not yet digest time
    assert run(at(3, 18, 0)) == 1

    assert pledge.code in digests()[-1].body


def test_no_digest_without_new_pledges_or_when_the_organizer_wants_each_by_email(campaign, run):
    other = CampaignFactory.create()
    pledge_at(at(2, 9), other)

    assert run(at(2, 18, 0)) == 0
    assert PledgeDigest.objects.count() == 0


def test_a_pledge_already_emailed_on_its_own_is_not_repeated_in_the_digest(campaign, run):
    CampaignReminderSettings.objects.filter(campaign=campaign).update(new_pledge_digest=False)
    told = pledge_at(at(2, 9), campaign)
    organizer_new_pledge_notify(pledge_id=told.pk)
    CampaignReminderSettings.objects.filter(campaign=campaign).update(new_pledge_digest=True)
    untold = pledge_at(at(2, 10), campaign)

    assert run(at(2, 18, 0)) == 1

    [log] = digests()
    assert untold.code in log.body and told.code not in log.body


@pytest.fixture
def choose(django_capture_on_commit_callbacks):
    """The organizer saves their settings at ``moment``, choosing the digest or not."""

    def save_at(moment: datetime, campaign, *, digest: bool) -> None:
        with time_machine.travel(moment, tick=False), django_capture_on_commit_callbacks(execute=True):
            reminder_settings_update(
                campaign_id=campaign.pk,
                user=campaign.organizer,
                enabled=True,
                offsets=["pledge+7"],
                new_pledge_digest=digest,
            )

    return save_at


def test_turning_the_digest_off_sends_the_pledges_it_had_not_listed_at_once(campaign, run, choose):
    pledge_at(at(1, 9), campaign)
    run(at(1, 18, 0))
    morning = pledge_at(at(2, 9), campaign, name="Wanjiru Kamau", amount=12_500)
    noon = pledge_at(at(2, 12), campaign, name="Otieno Odhiambo", amount=1_000)

    choose(at(2, 15), campaign, digest=False)

    _yesterday, last = digests()
    assert last.subject == "2 new pledges to New church roof"
    assert morning.code in last.body and noon.code in last.body
    assert "Total: Ksh 13,500" in last.body
    final = PledgeDigest.objects.get(final=True)
    assert (final.day, final.covers_from, final.covers_until) == (at(2, 15).date(), at(1, 18), at(2, 15))
    assert run(at(2, 18, 0)) == 0  # the digest is off now
    choose(at(2, 16), campaign, digest=False)  # saved again, still off: nothing more
    assert len(digests()) == 2


def test_turned_off_after_the_days_digest_it_sends_the_evenings_pledges_and_the_next_day_has_its_own(
    campaign, run, choose
):
    pledge_at(at(2, 9), campaign)
    assert run(at(2, 18, 0)) == 1
    evening = pledge_at(at(2, 18, 30), campaign)

    choose(at(2, 19), campaign, digest=False)
    choose(at(2, 19, 30), campaign, digest=True)
    later = pledge_at(at(2, 20), campaign)
    choose(at(2, 20, 30), campaign, digest=False)  # off again the same evening: a second last digest
    choose(at(2, 20, 45), campaign, digest=True)
    next_day = pledge_at(at(3, 9), campaign)

    assert run(at(2, 20, 50)) == 0  # today's scheduled digest went at 18:00
    assert run(at(3, 18, 0)) == 1

    _first, off, off_again, scheduled = digests()
    assert evening.code in off.body and later.code not in off.body
    assert later.code in off_again.body and evening.code not in off_again.body
    assert next_day.code in scheduled.body and later.code not in scheduled.body
    assert PledgeDigest.objects.filter(day=at(2, 0).date(), final=False).count() == 1


def test_turning_the_digest_off_with_nothing_new_sends_nothing(campaign, run, choose):
    pledge_at(at(2, 9), campaign)
    run(at(2, 18, 0))

    choose(at(2, 19), campaign, digest=False)

    assert len(digests()) == 1


def test_finding_due_digests_takes_one_query_per_campaign_with_a_digest(campaign, django_assert_num_queries):
    pledge_at(at(2, 9), campaign)
    PledgeDigest.objects.create(campaign=campaign, day=at(2, 18).date(), covers_from=at(1, 18), covers_until=at(2, 18))
    for _ in range(3):
        CampaignReminderSettings.objects.create(campaign=CampaignFactory.create(), new_pledge_digest=True)

    with django_assert_num_queries(4):  # the campaigns, then an exists() for each of the three others
        assert pledge_digests_send_due(now=at(2, 18, 0)) == 0
