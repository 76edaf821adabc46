"""Instalment plans: when each part of a pledge falls due, and whether its pledger keeps up.

A plan is an instalment amount, a frequency (weekly or monthly) and the first due date. The
schedule is ``ceil(pledge / instalment)`` instalments of the instalment amount, except the last,
which takes the remainder, so the plan always adds up to the pledge (Ksh 60,000 at 7,000 a month:
eight of 7,000 and a ninth of 4,000).

Due dates: weekly, every 7 days from the first; monthly, on the first due date's day of every
following month, or on the last day of a month too short for it. Each date is counted from the
first due date, never from the previous one, so a plan starting on 31 January falls due on
28 (or 29) February, 31 March, 30 April, 31 May: the short month does not pull the rest forward.

Standing: payments of any kind count against the instalments in order (``paid`` is everything
counted towards the pledge), so paying ahead covers the next ones. On a given day the pledger
is *behind* by the instalments due by then that the payments do not fully cover (and by the
amount those lack), *ahead* when the payments also cover the next instalment in full, and *on
track* otherwise. A plan that is paid in full is ahead only until its last date has passed.

Due: what a pledger on a plan is offered to pay on a given day. Behind, what the instalments due by
then lack (everything overdue, at once); otherwise what is left of the next instalment not yet
covered (its part-paid rest, when paying ahead began it). Nothing once the plan is paid. Any other
amount up to what is left of the pledge may be paid instead; this only chooses the one offered.

A plan asked for by phone (USSD, ``PLEDGE 14 12000 3M``) names how many instalments, not their
amount: ``count`` instalments of ``ceil(pledge / count)`` (Ksh 12,000 in 3: three of 4,000; Ksh
10,000 in 3: 3,334, 3,334 and 3,332), the first one week or one month from the day of the pledge,
so the pledger is not behind the day after pledging.

Paying automatically (an M-Pesa Ratiba standing order pays one amount every week or month): only
the instalments still to pay, when they are all the same amount (the pledge divides by the
instalment), the payments so far cover whole instalments (no part-paid one), and the first of them
falls due today or later (a pledger who is behind catches up first). The order then pays exactly
what is left, on the plan's own dates.
"""

import calendar
import math
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum
from itertools import accumulate


class Frequency(StrEnum):
    WEEKLY = "weekly"
    MONTHLY = "monthly"


class Standing(StrEnum):
    ON_TRACK = "on_track"
    AHEAD = "ahead"
    BEHIND = "behind"


# Enough for a weekly plan over five years; it bounds the work of every schedule computed.
MAX_INSTALMENTS = 260
# How far past its campaign's end date a plan may run, where the campaign allows it.
PAST_END_MONTHS = 24


@dataclass(frozen=True)
class PlanTerms:
    """What a pledger chooses: ``instalment`` whole KES every week or month from ``first_due_on``."""

    instalment: int
    frequency: str
    first_due_on: date


@dataclass(frozen=True)
class PlanByCount:
    """What a pledger by phone chooses: ``count`` instalments, every week or month (see the module's rule)."""

    count: int
    frequency: Frequency


@dataclass(frozen=True)
class Instalment:
    number: int  # from 1
    due_on: date
    amount: int
    due_by_then: int  # this instalment and every one before it: what is paid when it is covered


@dataclass(frozen=True)
class PlanStanding:
    standing: Standing
    behind_count: int = 0
    behind_amount: int = 0


def instalment_count(*, total: int, instalment: int) -> int:
    return math.ceil(total / instalment)


def add_months(first: date, months: int) -> date:
    """``first``'s day, ``months`` later; the last day of that month when it is shorter."""
    month_index = first.month - 1 + months
    year, month = first.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(first.day, calendar.monthrange(year, month)[1]))


def latest_last_due_on(*, end_date: date, past_end_allowed: bool) -> date:
    """The latest a plan's last instalment may fall due: the campaign's end date, or
    ``PAST_END_MONTHS`` later where the campaign allows plans to run past it."""
    return add_months(end_date, PAST_END_MONTHS) if past_end_allowed else end_date


def due_date(*, first_due_on: date, frequency: Frequency, index: int) -> date:
    """The due date of the instalment at ``index`` (0 for the first)."""
    if frequency == Frequency.WEEKLY:
        return first_due_on + timedelta(weeks=index)
    return add_months(first_due_on, index)


def schedule(*, total: int, instalment: int, frequency: Frequency, first_due_on: date) -> list[Instalment]:
    """Every instalment of a plan paying ``total`` by ``instalment`` (both at least 1)."""
    count = instalment_count(total=total, instalment=instalment)
    amounts = [instalment] * (count - 1) + [total - instalment * (count - 1)]
    return [
        Instalment(
            number=index + 1,
            due_on=due_date(first_due_on=first_due_on, frequency=frequency, index=index),
            amount=amount,
            due_by_then=due_by_then,
        )
        for index, (amount, due_by_then) in enumerate(zip(amounts, accumulate(amounts), strict=True))
    ]


def standing(*, instalments: list[Instalment], paid: int, today: date) -> PlanStanding:
    """Where a pledger with ``paid`` counted towards the pledge stands on ``today``."""
    due = [instalment for instalment in instalments if instalment.due_on <= today]
    owed = due[-1].due_by_then if due else 0
    if paid < owed:
        missed = [instalment for instalment in due if instalment.due_by_then > paid]
        return PlanStanding(Standing.BEHIND, behind_count=len(missed), behind_amount=owed - paid)
    upcoming = instalments[len(due)] if len(due) < len(instalments) else None
    if upcoming is not None and paid >= upcoming.due_by_then:
        return PlanStanding(Standing.AHEAD)
    return PlanStanding(Standing.ON_TRACK)


def terms_by_count(*, total: int, count: int, frequency: Frequency, today: date) -> PlanTerms:
    """The plan of ``count`` instalments of ``total`` asked for by phone (see the module's rule)."""
    return PlanTerms(
        instalment=math.ceil(total / count),
        frequency=frequency,
        first_due_on=due_date(first_due_on=today, frequency=frequency, index=1),
    )


def most_instalments(*, total: int, frequency: Frequency, today: date, latest_last_due_on: date) -> int:
    """The most instalments a plan asked for by phone on ``today`` may have: each at least Ksh 1,
    at most ``MAX_INSTALMENTS``, the last due by ``latest_last_due_on`` (0 when even one is not)."""
    count = 0
    while (
        count < min(total, MAX_INSTALMENTS)
        and due_date(first_due_on=today, frequency=frequency, index=count + 1) <= latest_last_due_on
    ):
        count += 1
    return count


def amount_due(*, instalments: list[Instalment], paid: int, today: date) -> int:
    """What is due on ``today`` (see the module's rule): the overdue amount, else the rest of the next instalment."""
    where = standing(instalments=instalments, paid=paid, today=today)
    if where.standing == Standing.BEHIND:
        return where.behind_amount
    upcoming = next((instalment for instalment in instalments if instalment.due_by_then > paid), None)
    return upcoming.due_by_then - paid if upcoming else 0


def automatic_instalments(*, instalments: list[Instalment], paid: int, today: date) -> list[Instalment]:
    """The instalments a standing order would pay (see the module's rule); empty when it cannot."""
    left = [instalment for instalment in instalments if instalment.due_by_then > paid]
    if not left or len({instalment.amount for instalment in instalments}) != 1:
        return []
    covered = instalments[len(instalments) - len(left) - 1].due_by_then if len(left) < len(instalments) else 0
    if paid != covered or left[0].due_on < today:
        return []
    return left
