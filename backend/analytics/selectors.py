"""Reads of a campaign's analytics, for its organizer and admins.

Three aggregate queries whatever the number of pledges, payments and visits: pledges by day and
state, counted money by day, method and purpose, and visits by day. Python only folds the
grouped rows (a few per day at most) into the series and lists the page shows. Days are
Nairobi days; money is whole KES.
"""

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.db.models import Count, DateField, Q, QuerySet, Sum
from django.db.models.functions import Coalesce, TruncDate, TruncMonth
from django.utils import timezone
from django.utils.translation import gettext as _

from analytics.models import CampaignDailyVisits
from campaigns.models import Campaign
from payments.models import Payment
from pledges.instalments import add_months
from pledges.models import InstalmentPlan, Pledge, PledgeStatus

TOP_DAYS_LIMIT = 5
# The order the page lists them in: settled first.
STATUS_ORDER = [PledgeStatus.CONFIRMED, PledgeStatus.PARTLY_PAID, PledgeStatus.PENDING]


@dataclass
class Day:
    day: date
    pledged: int = 0
    pledge_count: int = 0
    paid: int = 0
    donated: int = 0
    donation_count: int = 0
    views: int = 0
    visitors: int = 0
    pledged_cumulative: int = 0
    paid_cumulative: int = 0


@dataclass(frozen=True)
class PlanMonth:
    month: date  # its first day
    promised: int  # what the plans of live pledges fall due that month
    arrived: int  # all the money counted that month: every pledge payment and donation
    towards_plans: int  # of it, the payments to pledges that have a plan: what answers ``promised``


@dataclass
class CampaignAnalytics:
    campaign: Campaign
    days: list[Day]
    pledges_by_status: list[dict[str, Any]]
    payments_by_method: list[dict[str, Any]]
    top_days: list[Day] = field(default_factory=list)
    pledged_total: int = 0
    paid_total: int = 0
    pledge_count: int = 0
    donation_count: int = 0
    views: int = 0
    visitors: int = 0
    conversion_percent: float | None = None
    plan_months: list[PlanMonth] = field(default_factory=list)


def _counted_payment_groups(campaign: Campaign) -> QuerySet[Any, Any]:
    """The money in the campaign's raised total, summed by day, method and purpose: the payments
    credited to its pledges and those of its counted donations, each as of when it counted
    (``Payment.counted_at``, set by ``pledges.services`` with ``raised_total``). One index-only
    read of the campaign's counted payments, joined to nothing."""
    return (
        Payment.objects.filter(campaign=campaign, counted_at__isnull=False)
        .annotate(day=TruncDate("counted_at"))
        .order_by()
        .values("day", "provider", "purpose")
        .annotate(amount=Sum("amount"), count=Count("*"))
    )


def _pledges_by_status(figures: dict[str, list[int]]) -> list[dict[str, Any]]:
    rows = []
    for status in STATUS_ORDER:
        count, amount, paid = figures.get(status, [0, 0, 0])
        rows.append({"status": status, "label": str(status.label), "count": count, "amount": amount, "paid": paid})
    return rows


def _timeline_bounds(campaign: Campaign, active_days: set[date]) -> tuple[date, date]:
    """From the start (or the first activity, if earlier) to today, or the end date once passed."""
    today = timezone.localdate()
    first = min([campaign.start_date, *active_days])
    last = max([min(today, max(campaign.end_date, first)), *active_days])
    return first, last


def campaign_analytics_get(*, campaign: Campaign) -> CampaignAnalytics:
    """Cumulative pledged and paid per day, pledges by state, payments by method, views, unique
    visitors, conversion and the best days of ``campaign``.

    Conversion is the share of unique visitors who pledged or donated, counting only the pledges
    and donations made since views were first counted (before that no visitor was recorded).
    Unique visitors are summed over days: someone who comes back on another day counts again.
    """
    days: dict[date, Day] = {}

    def on(day: date) -> Day:
        return days.setdefault(day, Day(day=day))

    # One read of the live pledges (a cancelled one counts nowhere), by day and state, for both the
    # timeline and the states' figures.
    by_status: dict[str, list[int]] = {}
    pledge_groups = (
        Pledge.objects.live()
        .filter(campaign=campaign)
        .annotate(day=TruncDate("created_at"))
        .order_by()
        .values_list("day", "status")
        .annotate(count=Count("*"), amount=Sum("amount"), paid=Sum("paid_amount"))
    )
    for day, status, count, amount, paid in pledge_groups:
        entry = on(day)
        entry.pledged += amount
        entry.pledge_count += count
        figures = by_status.setdefault(status, [0, 0, 0])
        figures[0] += count
        figures[1] += amount
        figures[2] += paid

    by_method: dict[str, tuple[int, int]] = dict.fromkeys(Payment.Provider.values, (0, 0))
    for row in _counted_payment_groups(campaign):
        entry = on(row["day"])
        entry.paid += row["amount"]
        if row["purpose"] == Payment.Purpose.DONATION:
            entry.donated += row["amount"]
            entry.donation_count += row["count"]
        count, amount = by_method[row["provider"]]
        by_method[row["provider"]] = (count + row["count"], amount + row["amount"])

    visits = CampaignDailyVisits.objects.filter(campaign=campaign).order_by().values_list("day", "views", "visitors")
    for day, views, visitors in visits:
        entry = on(day)
        entry.views, entry.visitors = views, visitors

    first, last = _timeline_bounds(campaign, set(days))
    timeline = [on(first + timedelta(days=offset)) for offset in range((last - first).days + 1)]
    pledged = paid = 0
    for entry in timeline:
        pledged += entry.pledged
        paid += entry.paid
        entry.pledged_cumulative, entry.paid_cumulative = pledged, paid

    counting_since = next((entry.day for entry in timeline if entry.views), None)
    visitors = sum(entry.visitors for entry in timeline)
    converted = sum(
        entry.pledge_count + entry.donation_count
        for entry in timeline
        if counting_since is not None and entry.day >= counting_since
    )
    ranked = sorted(
        (entry for entry in timeline if entry.pledged or entry.donated),
        key=lambda entry: (entry.pledged + entry.donated, entry.day),
        reverse=True,
    )
    return CampaignAnalytics(
        campaign=campaign,
        days=timeline,
        pledges_by_status=_pledges_by_status(by_status),
        payments_by_method=[
            {
                "method": method,
                "label": str(method.label),
                "count": by_method[method][0],
                "amount": by_method[method][1],
            }
            for method in Payment.Provider
        ],
        top_days=ranked[:TOP_DAYS_LIMIT],
        pledged_total=pledged,
        paid_total=paid,
        pledge_count=sum(entry.pledge_count for entry in timeline),
        donation_count=sum(entry.donation_count for entry in timeline),
        views=sum(entry.views for entry in timeline),
        visitors=visitors,
        # Capped: a pledge can also come without a counted view (a shared pledge link).
        conversion_percent=round(min(converted / visitors, 1) * 100, 1) if visitors else None,
        plan_months=plan_months(campaign=campaign),
    )


def plan_months(*, campaign: Campaign) -> list[PlanMonth]:
    """What the instalment plans of the campaign's live pledges promise, month by month, beside the
    money that arrived each month towards those plans (payments to pledges with a plan) and all the
    money that arrived (every pledge payment and donation, as counted): from the first month with
    either to the last a plan reaches. Two queries: the plans with their pledges, and the counted
    payments summed by month."""
    promised: dict[date, int] = {}
    plans = InstalmentPlan.objects.filter(pledge__campaign=campaign, pledge__cancelled_at__isnull=True)
    for plan in plans.select_related("pledge"):
        for instalment in plan.schedule():
            month = instalment.due_on.replace(day=1)
            promised[month] = promised.get(month, 0) + instalment.amount
    if not promised:
        return []
    counted = (
        Payment.objects.filter(campaign=campaign, counted_at__isnull=False)
        .annotate(month=TruncMonth("counted_at", output_field=DateField()))
        .order_by()
        .values_list("month")
        .annotate(
            all_money=Sum("amount"),
            towards_plans=Coalesce(Sum("amount", filter=Q(pledge_link__pledge__instalment_plan__isnull=False)), 0),
        )
        .values_list("month", "all_money", "towards_plans")
    )
    arrived = {month: (all_money, towards_plans) for month, all_money, towards_plans in counted}
    months = sorted({*promised, *arrived})
    timeline, month = [], months[0]
    while month <= months[-1]:
        all_money, towards_plans = arrived.get(month, (0, 0))
        timeline.append(
            PlanMonth(month=month, promised=promised.get(month, 0), arrived=all_money, towards_plans=towards_plans)
        )
        month = add_months(month, 1)
    return timeline


def analytics_month_rows(*, analytics: CampaignAnalytics) -> list[list[str | int]]:
    """The analytics CSV: a heading row, then month by month what was pledged, what arrived (pledge
    payments and donations), what the instalment plans promise and what was paid towards them, whole KES."""
    months: dict[date, list[int]] = {}
    for entry in analytics.days:
        figures = months.setdefault(entry.day.replace(day=1), [0, 0, 0, 0])
        figures[0] += entry.pledged
        figures[1] += entry.paid
    for plan_month in analytics.plan_months:
        months.setdefault(plan_month.month, [0, 0, 0, 0])[2:] = [plan_month.promised, plan_month.towards_plans]
    heading: list[str | int] = [
        _("Month"),
        _("Pledged (KES)"),
        _("Paid (KES)"),
        _("Promised by instalment plans (KES)"),
        _("Paid towards instalment plans (KES)"),
    ]
    rows: list[list[str | int]] = [heading]
    rows.extend([f"{month:%Y-%m}", *figures] for month, figures in sorted(months.items()))
    return rows
