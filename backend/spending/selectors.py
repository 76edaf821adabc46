"""Reads of spending, and the one definition of a campaign's accountability figures.

``accountability_figures`` is what the public page 'How the money was used', the campaign page's
section and the committee's report (PDF and CSV) all show, so their totals cannot differ:

- **raised**: the campaign's raised total, the campaign page's own figure (``Campaign.raised_total``,
  kept by pledges' services); by channel from the same counted payments (``Payment.counted_at``), which
  the cross-check test holds equal to it. For a period: the payments counted in it.
- **platform fees**: the campaign's activation fee(s) paid to Harambee (``payments/fees.py``): succeeded,
  not reversed. The church paid them; they are shown so that what is left adds up.
- **spent**: approved lines without a reversing entry (``SpendingQuerySet.counted``), by category.
- **left** = raised - platform fees - spent.
- **pledges outstanding**: what live pledges still owe (the amount pledged less what was paid, never below 0).
"""

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import F, Q, Sum
from django.db.models.functions import Coalesce, Greatest, TruncDate
from django.utils import timezone

from campaigns.models import Campaign
from payments.models import Payment
from pledges.models import Pledge
from spending.models import ProgressUpdate, SpendingCategory, SpendingRecord

# The chart shows at most this many points: a long campaign's days are grouped into weeks or more.
CHART_POINTS_MAX = 60


@dataclass
class Amounts:
    key: str
    label: str
    amount: int


@dataclass
class ChartPoint:
    day: date
    money_in: int  # cumulative, whole KES
    money_out: int  # cumulative: spending and platform fees


@dataclass
class AccountabilityFigures:
    campaign: Campaign
    start: date | None
    end: date | None
    raised: int
    in_by_channel: list[Amounts]
    platform_fees: int
    spent: int
    spent_by_category: list[Amounts]
    left: int
    pledges_outstanding: int
    chart: list[ChartPoint] = field(default_factory=list)


def _bounds(start: date | None, end: date | None) -> tuple[datetime | None, datetime | None]:
    tz = timezone.get_current_timezone()
    return (
        datetime.combine(start, time.min, tz) if start else None,
        datetime.combine(end + timedelta(days=1), time.min, tz) if end else None,
    )


def _in_period(field_name: str, start: date | datetime | None, end: date | datetime | None, *, inclusive: bool) -> Q:
    where = Q()
    if start is not None:
        where &= Q(**{f"{field_name}__gte": start})
    if end is not None:
        where &= Q(**{f"{field_name}__{'lte' if inclusive else 'lt'}": end})
    return where


def counted_payments(campaign: Campaign) -> "Q":
    """The payments in the campaign's raised total (as analytics reads them)."""
    return Q(campaign=campaign, counted_at__isnull=False)


def accountability_figures(
    *, campaign: Campaign, start: date | None = None, end: date | None = None, chart: bool = True
) -> AccountabilityFigures:
    """The campaign's figures (see the module), over its whole life or from ``start`` to ``end``
    (Nairobi days, both included). Five queries (four without the chart)."""
    since, until = _bounds(start, end)
    channel_rows = (
        Payment.objects.filter(counted_payments(campaign), _in_period("counted_at", since, until, inclusive=False))
        .order_by()
        .values("provider")
        .annotate(amount=Sum("amount"))
    )
    channels = {row["provider"]: row["amount"] for row in channel_rows}
    in_by_channel = [
        Amounts(provider, str(label), channels[provider])
        for provider, label in Payment.Provider.choices
        if channels.get(provider)
    ]
    whole = start is None and end is None
    raised = campaign.raised_total if whole else sum(channels.values())
    platform_fees = Payment.objects.filter(
        _in_period("created_at", since, until, inclusive=False),
        campaign=campaign,
        purpose=Payment.Purpose.CAMPAIGN_ACTIVATION,
        status=Payment.Status.SUCCEEDED,
        reversed_at__isnull=True,
    ).aggregate(total=Coalesce(Sum("amount"), 0))["total"]
    category_rows = (
        SpendingRecord.objects.counted()
        .filter(_in_period("spent_on", start, end, inclusive=True), campaign=campaign)
        .order_by()
        .values("category")
        .annotate(amount=Sum("amount"))
    )
    categories = {row["category"]: row["amount"] for row in category_rows}
    spent_by_category = [
        Amounts(category, str(label), categories[category])
        for category, label in SpendingCategory.choices
        if categories.get(category)
    ]
    spent = sum(categories.values())
    outstanding = (
        Pledge.objects.filter(campaign=campaign)
        .live()
        .aggregate(owed=Coalesce(Sum(Greatest(F("amount") - F("paid_amount"), 0)), 0))["owed"]
    )
    return AccountabilityFigures(
        campaign=campaign,
        start=start,
        end=end,
        raised=raised,
        in_by_channel=in_by_channel,
        platform_fees=platform_fees,
        spent=spent,
        spent_by_category=spent_by_category,
        left=raised - platform_fees - spent,
        pledges_outstanding=outstanding,
        chart=_chart(campaign, since=since, until=until, start=start, end=end) if chart else [],
    )


def _chart(
    campaign: Campaign, *, since: datetime | None, until: datetime | None, start: date | None, end: date | None
) -> list[ChartPoint]:
    """Money in and out, cumulative, by day (grouped when there are more than ``CHART_POINTS_MAX`` days).
    Two queries."""
    daily_in = (
        Payment.objects.filter(counted_payments(campaign), _in_period("counted_at", since, until, inclusive=False))
        .annotate(day=TruncDate("counted_at"))
        .order_by()
        .values("day")
        .annotate(amount=Sum("amount"))
    )
    daily_out = (
        SpendingRecord.objects.counted()
        .filter(_in_period("spent_on", start, end, inclusive=True), campaign=campaign)
        .order_by()
        .values("spent_on")
        .annotate(amount=Sum("amount"))
    )
    moves: dict[date, list[int]] = {}
    for row in daily_in:
        moves.setdefault(row["day"], [0, 0])[0] += row["amount"]
    for row in daily_out:
        moves.setdefault(row["spent_on"], [0, 0])[1] += row["amount"]
    if not moves:
        return []
    days = sorted(moves)
    step = max(1, -(-((days[-1] - days[0]).days + 1) // CHART_POINTS_MAX))
    points: list[ChartPoint] = []
    money_in = money_out = 0
    for day in days:
        money_in += moves[day][0]
        money_out += moves[day][1]
        bucket = days[0] + timedelta(days=((day - days[0]).days // step) * step)
        if points and points[-1].day == bucket:
            points[-1] = ChartPoint(bucket, money_in, money_out)
        else:
            points.append(ChartPoint(bucket, money_in, money_out))
    return points


def spending_lines(*, campaign: Campaign, start: date | None = None, end: date | None = None) -> list[SpendingRecord]:
    """Every line and reversing entry of the campaign, newest first, with who recorded and approved
    each and its account. One query."""
    return list(
        SpendingRecord.objects.filter(_in_period("spent_on", start, end, inclusive=True), campaign=campaign)
        .select_related("recorded_by", "approved_by", "collection_account", "reversal", "reverses")
        .order_by("-spent_on", "-id")
    )


def spending_public_lines(*, campaign: Campaign) -> list[SpendingRecord]:
    """The lines that count, as the public page lists them. One query."""
    return list(SpendingRecord.objects.counted().filter(campaign=campaign).order_by("-spent_on", "-id"))


def progress_updates(*, campaign: Campaign, limit: int = 20) -> list[ProgressUpdate]:
    return list(ProgressUpdate.objects.filter(campaign=campaign).select_related("posted_by")[:limit])


def spending_line_get(*, record_id: int) -> SpendingRecord | None:
    return SpendingRecord.objects.select_related("campaign", "reversal").filter(pk=record_id).first()
