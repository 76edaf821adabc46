"""Champions' reads: the leaderboards, a champion's page, a champion's own view of their circle.

What a champion raised is what their attributed pledges and donations credited the campaign: the
donations counted (a reversed payment's no longer is) plus what was paid towards their live pledges.
What they have pledged follows the campaign's public-figure rule (``Campaign.public_pledged_total``):
when pledges made without signing in count only once something is paid, so do a champion's. A champion
off the leaderboard is not named on it; their money still counts for their team and the campaign.

The boards are read once per campaign version (``campaigns.caching``: any change of a pledge, donation,
champion, team or attribution renews it) and day, and kept in each worker's memory.
"""

import threading
from dataclasses import dataclass, field
from datetime import date, datetime, time

from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from campaigns.caching import campaign_version, campaign_version_start
from campaigns.models import Campaign
from champions.models import Attribution, Champion, Team
from pledges.models import PledgePayment

BOARD_SIZE = 10
MAX_ENTRIES = 500


@dataclass(frozen=True)
class ChampionFigures:
    raised: int = 0
    pledged: int = 0
    gifts: int = 0


@dataclass(frozen=True)
class Standing:
    code: str
    name: str
    team: str
    goal: int
    raised: int
    pledged: int


@dataclass(frozen=True)
class TeamStanding:
    id: int
    name: str
    goal: int
    raised: int
    pledged: int
    champions: int


@dataclass(frozen=True)
class Board:
    champions: list[Standing] = field(default_factory=list)
    teams: list[TeamStanding] = field(default_factory=list)
    raised: int = 0
    """What every champion brought (named on the board or not)."""


@dataclass(frozen=True)
class Leaderboards:
    overall: Board
    tonight: Board
    since: datetime


def tonight_start(now: datetime | None = None) -> datetime:
    """'Tonight' is today in Nairobi: from midnight on."""
    today = timezone.localdate(now)
    return timezone.make_aware(datetime.combine(today, time.min))


def champion_figures(*, campaign: Campaign, since: datetime | None = None) -> dict[int, ChampionFigures]:
    """Each champion's figures (by champion id), over everything or since ``since``. Two queries."""
    public = Q(pledge__cancelled_at__isnull=True)
    if campaign.unsigned_pledges_count_after_payment:
        public &= Q(pledge__user__isnull=False) | Q(pledge__paid_amount__gt=0)
    given = Q(donation__counted_at__isnull=False)
    if since is not None:
        public &= Q(pledge__created_at__gte=since)
        given &= Q(donation__counted_at__gte=since)
    rows = (
        Attribution.objects.filter(champion__campaign=campaign)
        .values("champion_id")
        .annotate(
            given=Coalesce(Sum("donation__amount", filter=given), 0),
            paid=Coalesce(Sum("pledge__paid_amount", filter=Q(pledge__cancelled_at__isnull=True)), 0),
            pledged=Coalesce(Sum("pledge__amount", filter=public), 0),
        )
        .values_list("champion_id", "given", "paid", "pledged")
    )
    figures = {champion_id: [given, paid, pledged] for champion_id, given, paid, pledged in rows}
    if since is not None:
        # Paid tonight towards their pledges: the payments counted since, not reversed.
        for values in figures.values():
            values[1] = 0
        paid_since = (
            PledgePayment.objects.filter(
                pledge__champion_attribution__champion__campaign=campaign,
                pledge__cancelled_at__isnull=True,
                payment__counted_at__gte=since,
                payment__reversal__isnull=True,
            )
            .values("pledge__champion_attribution__champion_id")
            .annotate(paid=Sum("payment__amount"))
            .values_list("pledge__champion_attribution__champion_id", "paid")
        )
        for champion_id, paid in paid_since:
            figures.setdefault(champion_id, [0, 0, 0])[1] = paid
    return {
        champion_id: ChampionFigures(raised=given + paid, pledged=pledged)
        for champion_id, (given, paid, pledged) in figures.items()
    }


def _board(*, campaign: Campaign, since: datetime | None, size: int) -> Board:
    figures = champion_figures(campaign=campaign, since=since)
    champions = list(
        Champion.objects.filter(campaign=campaign).values_list(
            "pk", "code", "name", "goal", "on_leaderboard", "team_id"
        )
    )
    teams = {team.pk: team for team in Team.objects.filter(campaign=campaign)}
    empty = ChampionFigures()
    team_sums: dict[int, list[int]] = {team_id: [0, 0, 0] for team_id in teams}
    standings = []
    for pk, code, name, goal, on_board, team_id in champions:
        mine = figures.get(pk, empty)
        if team_id is not None:
            sums = team_sums[team_id]
            sums[0] += mine.raised
            sums[1] += mine.pledged
            sums[2] += 1
        if on_board and (mine.raised or mine.pledged or since is None):
            team_name = teams[team_id].name if team_id is not None else ""
            standings.append(Standing(code, name, team_name, goal, mine.raised, mine.pledged))
    standings.sort(key=lambda s: (-s.raised, -s.pledged, s.name))
    team_standings = [
        TeamStanding(team.pk, team.name, team.goal, *team_sums[team.pk])
        for team in teams.values()
        if since is None or team_sums[team.pk][0] or team_sums[team.pk][1]
    ]
    team_standings.sort(key=lambda t: (-t.raised, -t.pledged, t.name))
    return Board(
        champions=standings[:size],
        teams=team_standings[:size],
        raised=sum(value.raised for value in figures.values()),
    )


_entries: dict[tuple[int, str, date], Leaderboards] = {}
_entries_lock = threading.Lock()


def leaderboards(*, campaign: Campaign, size: int = BOARD_SIZE) -> Leaderboards:
    """The campaign's top champions and teams, overall and tonight (each at most ``size``). Read once per
    campaign version and day, then one cache lookup."""
    version = campaign_version(campaign_id=campaign.pk) or campaign_version_start(campaign_id=campaign.pk)
    today = timezone.localdate()
    slot = (campaign.pk, version, today)
    if size == BOARD_SIZE and (cached := _entries.get(slot)) is not None:
        return cached
    since = tonight_start()
    boards = Leaderboards(
        overall=_board(campaign=campaign, since=None, size=size),
        tonight=_board(campaign=campaign, since=since, size=size),
        since=since,
    )
    if size == BOARD_SIZE:
        with _entries_lock:
            if len(_entries) >= MAX_ENTRIES:
                del _entries[next(iter(_entries))]
            _entries[slot] = boards
    return boards


def champion_totals(*, champion: Champion) -> ChampionFigures:
    """One champion's figures for their page (the public-figure rule, as the boards). One query."""
    campaign = champion.campaign
    public = Q(pledge__cancelled_at__isnull=True)
    if campaign.unsigned_pledges_count_after_payment:
        public &= Q(pledge__user__isnull=False) | Q(pledge__paid_amount__gt=0)
    row = Attribution.objects.filter(champion=champion).aggregate(
        given=Coalesce(Sum("donation__amount", filter=Q(donation__counted_at__isnull=False)), 0),
        paid=Coalesce(Sum("pledge__paid_amount", filter=Q(pledge__cancelled_at__isnull=True)), 0),
        pledged=Coalesce(Sum("pledge__amount", filter=public), 0),
        gifts=Count(
            "pk",
            filter=Q(donation__counted_at__isnull=False)
            | Q(pledge__cancelled_at__isnull=True, pledge__paid_amount__gt=0),
        ),
    )
    return ChampionFigures(raised=row["given"] + row["paid"], pledged=row["pledged"], gifts=row["gifts"])


@dataclass(frozen=True)
class CircleGift:
    """One gift or pledge brought by a champion, as the champion may see it."""

    name: str
    kind: str  # "pledge" | "gift"
    amount: int
    paid: int
    owed: int
    at: datetime


def champion_circle(*, champion: Champion) -> list[CircleGift]:
    """Who gave through the champion, newest first: names as the privacy rules allow (an anonymous
    giver stays 'Anonymous'; phones and e-mails never shown), what each pledged, paid and still owes.
    Cancelled pledges and reversed gifts are left out. One query."""
    gifts = []
    for attribution in (
        Attribution.objects.filter(champion=champion)
        .select_related("pledge", "donation")
        .order_by("-created_at", "-id")
    ):
        if (pledge := attribution.pledge) is not None and pledge.is_live:
            name = "" if pledge.is_anonymous else pledge.name
            gifts.append(
                CircleGift(
                    name, "pledge", pledge.amount, pledge.paid_amount, pledge.remaining_amount, pledge.created_at
                )
            )
        elif (donation := attribution.donation) is not None and donation.counted_at is not None:
            name = "" if donation.is_anonymous else donation.name
            gifts.append(CircleGift(name, "gift", donation.amount, donation.amount, 0, donation.counted_at))
    return gifts


def champions_personal_data_export(*, user: User) -> dict[str, object]:
    """The campaigns the user is a champion of, for their download (``privacy``)."""
    return {"championships": list(Champion.objects.filter(user=user).order_by("created_at", "id"))}
