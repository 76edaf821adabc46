"""Champions' reads: the leaderboards, a champion's page, a champion's own view of their circle.

What a champion raised is what their attributed pledges and donations credited the campaign: the
donations counted (a reversed payment's no longer is) plus what was paid towards their live pledges.
What they have pledged follows the campaign's public-figure rule (``Campaign.public_pledged_total``):
when pledges made without signing in count only once something is paid, so do a champion's. A champion
off the leaderboard is not named on it; their money still counts for their team and the campaign.

The boards and pages are rendered once per campaign version and kept in each worker's memory
(``champions.caching``).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, time

from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from campaigns.models import Campaign
from champions.models import Attribution, Champion, Team
from pledges.models import Donation, Pledge, PledgePayment

BOARD_SIZE = 10


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


def _public_pledge(campaign: Campaign) -> Q:
    """A live pledge that counts in the public figures (``Campaign.public_pledged_total``'s rule)."""
    public = Q(cancelled_at__isnull=True)
    if campaign.unsigned_pledges_count_after_payment:
        public &= Q(user__isnull=False) | Q(paid_amount__gt=0)
    return public


def champions_figures(
    *, campaign: Campaign, since: datetime
) -> tuple[dict[int, ChampionFigures], dict[int, ChampionFigures]]:
    """Each champion's figures (by champion id), over everything and since ``since``. Three queries, each
    one pass over the campaign's attributed donations, pledges, or payments to those pledges."""
    overall: dict[int, list[int]] = {}
    tonight: dict[int, list[int]] = {}
    donations = (
        Donation.objects.filter(champion_attribution__champion__campaign=campaign, counted_at__isnull=False)
        .values("champion_attribution__champion_id")
        .annotate(given=Sum("amount"), given_since=Coalesce(Sum("amount", filter=Q(counted_at__gte=since)), 0))
        .values_list("champion_attribution__champion_id", "given", "given_since")
    )
    for champion_id, given, given_since in donations:
        overall[champion_id] = [given, 0]
        tonight[champion_id] = [given_since, 0]
    public = _public_pledge(campaign)
    pledges = (
        Pledge.objects.filter(champion_attribution__champion__campaign=campaign, cancelled_at__isnull=True)
        .values("champion_attribution__champion_id")
        .annotate(
            paid=Sum("paid_amount"),
            pledged=Coalesce(Sum("amount", filter=public), 0),
            pledged_since=Coalesce(Sum("amount", filter=public & Q(created_at__gte=since)), 0),
        )
        .values_list("champion_attribution__champion_id", "paid", "pledged", "pledged_since")
    )
    for champion_id, paid, pledged, pledged_since in pledges:
        mine = overall.setdefault(champion_id, [0, 0])
        mine[0] += paid
        mine[1] = pledged
        tonight.setdefault(champion_id, [0, 0])[1] = pledged_since
    # Paid tonight towards their pledges: the payments counted since, not reversed.
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
        tonight.setdefault(champion_id, [0, 0])[0] += paid
    return (
        {pk: ChampionFigures(raised=raised, pledged=pledged) for pk, (raised, pledged) in overall.items()},
        {pk: ChampionFigures(raised=raised, pledged=pledged) for pk, (raised, pledged) in tonight.items()},
    )


def champion_figures(*, campaign: Campaign, since: datetime | None = None) -> dict[int, ChampionFigures]:
    """Each champion's figures (by champion id), over everything or since ``since``."""
    overall, tonight = champions_figures(campaign=campaign, since=since or tonight_start())
    return overall if since is None else tonight


def _board(
    *,
    figures: dict[int, ChampionFigures],
    champions: Sequence[tuple[int, str, str, int, bool, int | None]],
    teams: dict[int, Team],
    tonight: bool,
    size: int,
) -> Board:
    """The top ``size`` champions named on the board and teams; tonight's only those who moved."""
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
        if on_board and (mine.raised or mine.pledged or not tonight):
            team_name = teams[team_id].name if team_id is not None else ""
            standings.append(Standing(code, name, team_name, goal, mine.raised, mine.pledged))
    standings.sort(key=lambda s: (-s.raised, -s.pledged, s.name))
    team_standings = [
        TeamStanding(team.pk, team.name, team.goal, *team_sums[team.pk])
        for team in teams.values()
        if not tonight or team_sums[team.pk][0] or team_sums[team.pk][1]
    ]
    team_standings.sort(key=lambda t: (-t.raised, -t.pledged, t.name))
    return Board(
        champions=standings[:size],
        teams=team_standings[:size],
        raised=sum(value.raised for value in figures.values()),
    )


def leaderboards(*, campaign: Campaign, size: int = BOARD_SIZE) -> Leaderboards:
    """The campaign's top champions and teams, overall and tonight (each at most ``size``). Five queries
    (``champions.caching`` keeps the answer per campaign version)."""
    since = tonight_start()
    overall, tonight = champions_figures(campaign=campaign, since=since)
    champions = list(
        Champion.objects.filter(campaign=campaign).values_list(
            "pk", "code", "name", "goal", "on_leaderboard", "team_id"
        )
    )
    teams = {team.pk: team for team in Team.objects.filter(campaign=campaign)}
    return Leaderboards(
        overall=_board(figures=overall, champions=champions, teams=teams, tonight=False, size=size),
        tonight=_board(figures=tonight, champions=champions, teams=teams, tonight=True, size=size),
        since=since,
    )


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


@dataclass(frozen=True)
class RosterChampion:
    """A champion as the campaign's team lists them: named whether on the board or not."""

    code: str
    name: str
    team_id: int | None
    goal: int
    on_leaderboard: bool
    card_number: int
    card_returned: bool
    raised: int
    pledged: int


@dataclass(frozen=True)
class Roster:
    champions: list[RosterChampion]
    teams: list[TeamStanding]


def champion_of(*, campaign: Campaign, user: User) -> Champion | None:
    """The signed-in member's own championship of ``campaign``, if they are one. One query."""
    return Champion.objects.select_related("team", "card").filter(campaign=campaign, user=user).first()


def champions_roster(*, campaign: Campaign) -> Roster:
    """Every champion of the campaign by name, with their card and figures, and every team's totals
    (what its champions brought, named on the board or not). Five queries."""
    figures = champion_figures(campaign=campaign)
    empty = ChampionFigures()
    champions = [
        RosterChampion(
            code=champion.code,
            name=champion.name,
            team_id=champion.team_id,
            goal=champion.goal,
            on_leaderboard=champion.on_leaderboard,
            card_number=champion.card.number,
            card_returned=champion.card.returned_at is not None,
            raised=figures.get(champion.pk, empty).raised,
            pledged=figures.get(champion.pk, empty).pledged,
        )
        for champion in Champion.objects.filter(campaign=campaign).select_related("card").order_by("name", "id")
    ]
    teams = []
    for team in Team.objects.filter(campaign=campaign):
        members = [champion for champion in champions if champion.team_id == team.pk]
        raised, pledged = sum(c.raised for c in members), sum(c.pledged for c in members)
        teams.append(TeamStanding(team.pk, team.name, team.goal, raised, pledged, len(members)))
    return Roster(champions=champions, teams=teams)
