"""Reminders of a pledge paid in instalments, on a controlled clock (time-machine): one 3 days
before each instalment falls due, one 2 days after a missed one, none while on track or ahead.
The scheduler runs every morning at 09:00 Nairobi time, as a cron job would."""

from collections.abc import Callable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import CollectionAccountFactory
from notifications.models import NotificationLog, PledgeOptOut, Reminder
from notifications.reminders import reminders_send_due
from payments.models import MpesaStandingOrder
from pledges.instalments import PlanStanding, Standing
from pledges.models import InstalmentPlan
from pledges.services import pledge_payment_record
from pledges.tests.factories import PledgeFactory

NAIROBI = ZoneInfo("Africa/Nairobi")
PLEDGED_AT = datetime(2026, 1, 2, 10, 0, tzinfo=NAIROBI)
FIRST_DUE = date(2026, 2, 5)
# Ksh 60,000 at 5,000 a month: twelve instalments, 5 February 2026 to 5 January 2027.
DUE_DATES = [date(2026 + (month - 1) // 12, (month - 1) % 12 + 1, 5) for month in range(2, 14)]


@pytest.fixture
def pledge(db):
    with time_machine.travel(PLEDGED_AT, tick=False):
        pledge = PledgeFactory.create(campaign=CampaignFactory.create(end_date=date(2027, 3, 31)), amount=60_000)
    InstalmentPlan.objects.create(pledge=pledge, instalment=5_000, frequency="monthly", first_due_on=FIRST_DUE)
    return pledge


def pay(pledge, amount: int, day: date) -> None:
    with time_machine.travel(datetime.combine(day, datetime.min.time(), tzinfo=NAIROBI) + timedelta(hours=12)):
        pledge_payment_record(
            pledge_id=pledge.pk,
            user=pledge.campaign.organizer,
            amount=amount,
            method="cash",
            note="",
            reference="",
            received_on=day,
        )


@pytest.fixture
def mornings(django_capture_on_commit_callbacks) -> Callable[..., None]:
    """Run the scheduler at 09:00 every day from ``start`` to ``end``; ``payments`` (day -> amount)
    are paid at noon of their day, after that morning's run."""

    def run(pledge, start: date, end: date, payments: dict[date, int] | None = None) -> None:
        day = start
        while day <= end:
            moment = datetime.combine(day, datetime.min.time(), tzinfo=NAIROBI) + timedelta(hours=9)
            with time_machine.travel(moment, tick=False), django_capture_on_commit_callbacks(execute=True):
                reminders_send_due(now=moment)
            if payments and day in payments:
                pay(pledge, payments[day], day)
            day += timedelta(days=1)

    return run


def sent(pledge, prefix: str) -> list[str]:
    return sorted(
        Reminder.objects.filter(pledge=pledge, status=Reminder.Status.SENT, offset__startswith=prefix).values_list(
            "offset", flat=True
        )
    )


def test_a_twelve_month_plan_paid_on_time_gets_twelve_reminders_before_each_instalment_and_none_late(pledge, mornings):
    mornings(pledge, date(2026, 1, 3), date(2027, 3, 31), payments=dict.fromkeys(DUE_DATES, 5000))

    assert sent(pledge, "due@") == [f"due@{day}" for day in DUE_DATES]
    assert sent(pledge, "late@") == []
    # The campaign's fixed offsets (7 days after pledging, before the end) are replaced.
    assert Reminder.objects.filter(pledge=pledge).count() == 12
    first = NotificationLog.objects.filter(pledge=pledge, channel="sms", template="sms/reminder").earliest("created_at")
    assert "Ksh 5,000" in first.body and "5 February 2026" in first.body


def test_a_reminder_before_an_instalment_goes_out_three_days_before_it_falls_due(pledge, mornings):
    mornings(pledge, date(2026, 1, 3), date(2026, 2, 1))
    assert sent(pledge, "due@") == []

    mornings(pledge, date(2026, 2, 2), date(2026, 2, 2))
    assert sent(pledge, "due@") == ["due@2026-02-05"]


def test_a_missed_month_gets_one_late_reminder_and_is_behind_by_one(pledge, mornings):
    on_time = dict.fromkeys(DUE_DATES[:2], 5000)  # February and March; April missed

    mornings(pledge, date(2026, 1, 3), date(2026, 5, 1), payments=on_time)

    assert sent(pledge, "late@") == ["late@2026-04-05"]
    late_sent_at = Reminder.objects.get(offset="late@2026-04-05").sent_at
    assert late_sent_at is not None and late_sent_at.astimezone(NAIROBI).date() == date(2026, 4, 7)
    pledge.refresh_from_db()
    assert pledge.instalment_plan.standing(today=date(2026, 5, 1)) == PlanStanding(Standing.BEHIND, 1, 5_000)
    late = NotificationLog.objects.filter(pledge=pledge, channel="sms").latest("created_at")
    assert "was due 5 April 2026" in late.body


def test_an_early_lump_sum_makes_the_pledger_ahead_and_quiets_the_reminders(pledge, mornings):
    # The first instalment on time, then 30,000 on 10 February: covered up to 5 August.
    mornings(pledge, date(2026, 1, 3), date(2026, 8, 31), payments={FIRST_DUE: 5_000, date(2026, 2, 10): 30_000})

    pledge.refresh_from_db()
    assert pledge.instalment_plan.standing(today=date(2026, 2, 10)) == PlanStanding(Standing.AHEAD)
    assert sent(pledge, "due@") == ["due@2026-02-05"]
    assert sent(pledge, "late@") == []

    mornings(pledge, date(2026, 9, 1), date(2026, 9, 2))
    assert sent(pledge, "due@") == ["due@2026-02-05", "due@2026-09-05"]


def test_a_plan_past_the_campaign_end_keeps_reminding_after_it(db, mornings):
    with time_machine.travel(PLEDGED_AT, tick=False):
        pledge = PledgeFactory.create(
            campaign=CampaignFactory.create(end_date=date(2026, 3, 31), instalments_past_end=True), amount=15_000
        )
    InstalmentPlan.objects.create(pledge=pledge, instalment=5_000, frequency="monthly", first_due_on=date(2026, 4, 5))

    mornings(pledge, date(2026, 4, 1), date(2026, 6, 3))

    assert sent(pledge, "due@") == ["due@2026-04-05", "due@2026-05-05", "due@2026-06-05"]


def test_a_pledger_who_opted_out_gets_no_plan_reminders(pledge, mornings):
    PledgeOptOut.objects.create(pledge=pledge)

    mornings(pledge, date(2026, 2, 1), date(2026, 2, 10))

    assert not Reminder.objects.exists()


def _paid_automatically(pledge) -> None:
    order = MpesaStandingOrder.objects.create(
        account=CollectionAccountFactory.create(organization=pledge.campaign.organization, paybill_number="600177"),
        name=f"Pledge {pledge.code}",
        phone=pledge.phone,
        amount=5_000,
        frequency="monthly",
        start_on=FIRST_DUE,
        end_on=DUE_DATES[-1],
        account_reference=pledge.code,
        status=MpesaStandingOrder.Status.ACTIVE,
    )
    InstalmentPlan.objects.filter(pledge=pledge).update(standing_order=order)


def test_a_plan_paid_by_standing_order_on_time_gets_no_reminders(pledge, mornings):
    _paid_automatically(pledge)

    mornings(pledge, date(2026, 1, 3), date(2027, 3, 31), payments=dict.fromkeys(DUE_DATES, 5000))

    assert Reminder.objects.filter(pledge=pledge).count() == 0


def test_reminders_resume_once_a_standing_order_misses_an_instalment(pledge, mornings):
    _paid_automatically(pledge)
    # March's execution fails (the balance was short); the pledger pays it by hand on 20 March.
    executions = {day: 5000 for day in DUE_DATES[:6] if day != date(2026, 3, 5)} | {date(2026, 3, 20): 5000}

    mornings(pledge, date(2026, 1, 3), date(2026, 7, 10), payments=executions)

    assert sent(pledge, "late@") == ["late@2026-03-05"]
    # Behind from 5 to 20 March: nothing was due before then. On time again: no more reminders.
    assert sent(pledge, "due@") == []
    assert Reminder.objects.filter(pledge=pledge).count() == 1


def test_reminders_before_each_instalment_resume_while_a_standing_order_is_behind(pledge, mornings):
    _paid_automatically(pledge)
    # The order was stopped on the phone after February: nothing more arrives.
    mornings(pledge, date(2026, 1, 3), date(2026, 4, 10), payments={DUE_DATES[0]: 5000})

    assert sent(pledge, "late@") == ["late@2026-03-05", "late@2026-04-05"]
    assert sent(pledge, "due@") == ["due@2026-04-05"]
