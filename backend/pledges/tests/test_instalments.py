"""The instalment rule (pledges/instalments.py): tables of plans, their dates and standings."""

from datetime import date

import pytest

from pledges.instalments import (
    Frequency,
    PlanStanding,
    Standing,
    add_months,
    amount_due,
    latest_last_due_on,
    schedule,
    standing,
)

MONTHLY, WEEKLY = Frequency.MONTHLY, Frequency.WEEKLY


@pytest.mark.parametrize(
    ("total", "instalment", "amounts"),
    [
        (60_000, 5_000, [5_000] * 12),
        (60_000, 7_000, [7_000] * 8 + [4_000]),
        (100, 100, [100]),
        (100, 150, [100]),  # an instalment above the pledge is the pledge in one go
        (10, 3, [3, 3, 3, 1]),
        (1, 1, [1]),
    ],
)
def test_the_plan_adds_up_to_the_pledge_and_the_last_instalment_takes_the_remainder(total, instalment, amounts):
    plan = schedule(total=total, instalment=instalment, frequency=MONTHLY, first_due_on=date(2026, 1, 5))

    assert [part.amount for part in plan] == amounts
    assert sum(amounts) == total
    assert [part.due_by_then for part in plan][-1] == total
    assert [part.number for part in plan] == list(range(1, len(amounts) + 1))


@pytest.mark.parametrize(
    ("first", "dates"),
    [
        (date(2026, 1, 5), [date(2026, 1, 5), date(2026, 2, 5), date(2026, 3, 5), date(2026, 4, 5)]),
        # The 31st: the last day of shorter months, back to the 31st where there is one.
        (date(2026, 1, 31), [date(2026, 1, 31), date(2026, 2, 28), date(2026, 3, 31), date(2026, 4, 30)]),
        (date(2027, 12, 31), [date(2027, 12, 31), date(2028, 1, 31), date(2028, 2, 29), date(2028, 3, 31)]),
        (date(2026, 1, 29), [date(2026, 1, 29), date(2026, 2, 28), date(2026, 3, 29), date(2026, 4, 29)]),
        (date(2026, 3, 30), [date(2026, 3, 30), date(2026, 4, 30), date(2026, 5, 30), date(2026, 6, 30)]),
        (date(2026, 11, 15), [date(2026, 11, 15), date(2026, 12, 15), date(2027, 1, 15), date(2027, 2, 15)]),
    ],
)
def test_monthly_instalments_fall_on_the_first_due_day_or_the_last_day_of_a_shorter_month(first, dates):
    plan = schedule(total=400, instalment=100, frequency=MONTHLY, first_due_on=first)

    assert [part.due_on for part in plan] == dates


def test_weekly_instalments_fall_every_seven_days():
    plan = schedule(total=300, instalment=100, frequency=WEEKLY, first_due_on=date(2026, 2, 26))

    assert [part.due_on for part in plan] == [date(2026, 2, 26), date(2026, 3, 5), date(2026, 3, 12)]


@pytest.mark.parametrize(
    ("first", "months", "expected"),
    [
        (date(2026, 1, 31), 1, date(2026, 2, 28)),
        (date(2026, 1, 31), 13, date(2027, 2, 28)),
        (date(2026, 12, 1), 1, date(2027, 1, 1)),
        (date(2026, 6, 30), 24, date(2028, 6, 30)),
        (date(2026, 2, 28), 24, date(2028, 2, 28)),
    ],
)
def test_adding_months_keeps_the_day_or_takes_the_last_of_a_shorter_month(first, months, expected):
    assert add_months(first, months) == expected


@pytest.mark.parametrize(
    ("allowed", "expected"),
    [(False, date(2026, 8, 31)), (True, date(2028, 8, 31))],
)
def test_a_plan_ends_by_the_campaign_end_or_24_months_later_where_the_campaign_allows_it(allowed, expected):
    assert latest_last_due_on(end_date=date(2026, 8, 31), past_end_allowed=allowed) == expected


# 12,000 at 1,000 a month from 5 January: due by 5 March, 3,000.
PLAN = schedule(total=12_000, instalment=1_000, frequency=MONTHLY, first_due_on=date(2026, 1, 5))


@pytest.mark.parametrize(
    ("paid", "today", "expected"),
    [
        (0, date(2026, 1, 4), PlanStanding(Standing.ON_TRACK)),
        (0, date(2026, 1, 5), PlanStanding(Standing.BEHIND, 1, 1_000)),
        (3_000, date(2026, 3, 5), PlanStanding(Standing.ON_TRACK)),
        (2_000, date(2026, 3, 5), PlanStanding(Standing.BEHIND, 1, 1_000)),
        (2_500, date(2026, 3, 5), PlanStanding(Standing.BEHIND, 1, 500)),  # part of one is not all of it
        (500, date(2026, 3, 5), PlanStanding(Standing.BEHIND, 3, 2_500)),
        (4_000, date(2026, 3, 5), PlanStanding(Standing.AHEAD)),  # the next one is covered
        (3_999, date(2026, 3, 5), PlanStanding(Standing.ON_TRACK)),
        (12_000, date(2026, 1, 1), PlanStanding(Standing.AHEAD)),
        (12_000, date(2026, 12, 5), PlanStanding(Standing.ON_TRACK)),  # paid, and nothing more to come
        (11_000, date(2027, 6, 1), PlanStanding(Standing.BEHIND, 1, 1_000)),
    ],
)
def test_payments_count_against_the_instalments_in_order(paid, today, expected):
    assert standing(instalments=PLAN, paid=paid, today=today) == expected


@pytest.mark.parametrize(
    ("paid", "today", "expected"),
    [
        (0, date(2026, 1, 4), 1_000),  # before the first date: the first instalment
        (0, date(2026, 3, 5), 3_000),  # three missed: all that is overdue
        (2_500, date(2026, 3, 5), 500),  # behind by half of one
        (3_000, date(2026, 3, 5), 1_000),  # on time: the next one
        (4_500, date(2026, 3, 5), 500),  # ahead, the next one begun: its rest
        (12_000, date(2026, 3, 5), 0),  # all paid
    ],
)
def test_the_amount_due_is_what_is_overdue_or_the_rest_of_the_next_instalment(paid, today, expected):
    assert amount_due(instalments=PLAN, paid=paid, today=today) == expected
