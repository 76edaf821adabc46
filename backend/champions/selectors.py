"""Champions' reads: the leaderboards, a champion's page, a champion's own view of their circle.

What a champion raised is what their attributed pledges and donations credited the campaign: the
donations counted (a reversed payment's no longer is) plus what was paid towards their live pledges.
What they have pledged follows the campaign's public-figure rule (``Campaign.public_pledged_total``):
when pledges made without signing in count only once something is paid, so do a champion's. A champion
off the leaderboard is not named on it; their money still counts for their team and the campaign.

The boards and pages read each champion's and team's running totals (``champions.models.Totals``),
which the crediting transactions keep equal to those sums (``champions_totals_recounted``, recounted by
``champions.services.champions_totals_recount``); they are rendered once per campaign version and kept
in each worker's memory (``champions.caching``).
"""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time
from typing import Any

from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from campaigns.models import Campaign, CampaignStatus
from champions import codes
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


@dataclass
class RecountedTotals:
    """A champion's running totals as the ledger's own rows give them (the ``Totals`` columns)."""

    raised: int = 0
    pledged: int = 0
    pledged_public: int = 0
    gifts: int = 0
    tonight_raised: int = 0
    tonight_pledged: int = 0
    tonight_pledged_public: int = 0


def champions_totals_recounted(
    *, champion_ids: Iterable[int] | QuerySet, since: datetime
) -> dict[int, RecountedTotals]:
    """What the ledger credited through each of these champions (by id; those with nothing are left out),
    overall and since ``since``: the donations counted (a reversed payment's no longer is) plus what was
    paid towards their live pledges. Three queries, each one pass over their donations, pledges, or
    payments to those pledges. The running totals are these (``champions_totals_recount``)."""
    totals: defaultdict[int, RecountedTotals] = defaultdict(RecountedTotals)
    donations = (
        Donation.objects.filter(champion_attribution__champion_id__in=champion_ids, counted_at__isnull=False)
        .values("champion_attribution__champion_id")
        .annotate(
            given=Sum("amount"),
            given_since=Coalesce(Sum("amount", filter=Q(counted_at__gte=since)), 0),
            count=Count("pk"),
        )
        .values_list("champion_attribution__champion_id", "given", "given_since", "count")
    )
    for champion_id, given, given_since, count in donations:
        mine = totals[champion_id]
        mine.raised, mine.tonight_raised, mine.gifts = given, given_since, count
    public = Q(user__isnull=False) | Q(paid_amount__gt=0)
    today = Q(created_at__gte=since)
    pledges = (
        Pledge.objects.filter(champion_attribution__champion_id__in=champion_ids, cancelled_at__isnull=True)
        .values("champion_attribution__champion_id")
        .annotate(
            paid=Sum("paid_amount"),
            pledged=Sum("amount"),
            pledged_public=Coalesce(Sum("amount", filter=public), 0),
            pledged_since=Coalesce(Sum("amount", filter=today), 0),
            pledged_public_since=Coalesce(Sum("amount", filter=public & today), 0),
            paying=Count("pk", filter=Q(paid_amount__gt=0)),
        )
        .values_list(
            "champion_attribution__champion_id",
            "paid",
            "pledged",
            "pledged_public",
            "pledged_since",
            "pledged_public_since",
            "paying",
        )
    )
    for champion_id, paid, pledged, pledged_public, pledged_since, pledged_public_since, paying in pledges:
        mine = totals[champion_id]
        mine.raised += paid
        mine.gifts += paying
        mine.pledged, mine.pledged_public = pledged, pledged_public
        mine.tonight_pledged, mine.tonight_pledged_public = pledged_since, pledged_public_since
    # Paid tonight towards their pledges: the payments counted since, not reversed.
    paid_since = (
        PledgePayment.objects.filter(
            pledge__champion_attribution__champion_id__in=champion_ids,
            pledge__cancelled_at__isnull=True,
            payment__counted_at__gte=since,
            payment__reversal__isnull=True,
        )
        .values("pledge__champion_attribution__champion_id")
        .annotate(paid=Sum("payment__amount"))
        .values_list("pledge__champion_attribution__champion_id", "paid")
    )
    for champion_id, paid in paid_since:
        totals[champion_id].tonight_raised += paid
    return dict(totals)


def champion_figures(*, campaign: Campaign, since: datetime | None = None) -> dict[int, ChampionFigures]:
    """Each champion's figures (by champion id) recounted from the ledger, over everything or since
    ``since``, under the campaign's public-figure rule: what the running totals must equal."""
    public = campaign.unsigned_pledges_count_after_payment
    recounted = champions_totals_recounted(
        champion_ids=Champion.objects.filter(campaign=campaign).values("pk"), since=since or tonight_start()
    )
    if since is None:
        return {
            pk: ChampionFigures(raised=t.raised, pledged=t.pledged_public if public else t.pledged, gifts=t.gifts)
            for pk, t in recounted.items()
        }
    return {
        pk: ChampionFigures(raised=t.tonight_raised, pledged=t.tonight_pledged_public if public else t.tonight_pledged)
        for pk, t in recounted.items()
    }


def _standings(champions: Sequence[Champion], *, raised: str, pledged: str) -> list[Standing]:
    standings = [
        Standing(c.code, c.name, c.team.name if c.team else "", c.goal, getattr(c, raised), getattr(c, pledged))
        for c in champions
    ]
    return sorted(standings, key=lambda s: (-s.raised, -s.pledged, s.name))


def _team_standings(teams: Sequence[Team], *, raised: str, pledged: str, size: int) -> list[TeamStanding]:
    standings = [
        TeamStanding(t.pk, t.name, t.goal, getattr(t, raised), getattr(t, pledged), t.members)  # type: ignore[attr-defined]
        for t in teams
    ]
    return sorted(standings, key=lambda t: (-t.raised, -t.pledged, t.name, t.id))[:size]


def leaderboards(*, campaign: Campaign, size: int = BOARD_SIZE) -> Leaderboards:
    """The campaign's top champions and teams, overall and tonight (each at most ``size``), read from the
    running totals: each board's champions an ORDER BY over their indexed columns with LIMIT, both boards
    and what every champion brought read in one query; the campaign's few teams in another. Two queries,
    neither growing with the champions or their gifts (``champions.caching`` keeps the answer per
    campaign version). Tonight's boards hold only those who moved today."""
    today = timezone.localdate()
    public = "_public" if campaign.unsigned_pledges_count_after_payment else ""
    overall, tonight = ("raised", f"pledged{public}"), ("tonight_raised", f"tonight_pledged{public}")
    moved = Q(tonight=today) & (Q(tonight_raised__gt=0) | Q(**{f"{tonight[1]}__gt": 0}))
    named = Champion.objects.filter(campaign=campaign, on_leaderboard=True)
    everyone = Champion.objects.filter(campaign=campaign).values("campaign")

    def top(ranked: QuerySet[Champion], raised: str, pledged: str) -> QuerySet[Champion, Any]:
        return ranked.order_by(f"-{raised}", f"-{pledged}", "name", "pk").values("pk")[:size]

    champions = list(
        Champion.objects.annotate(
            on_overall=ExpressionWrapper(Q(pk__in=top(named, *overall)), output_field=BooleanField()),
            on_tonight=ExpressionWrapper(Q(pk__in=top(named.filter(moved), *tonight)), output_field=BooleanField()),
            everyones=Subquery(everyone.annotate(total=Sum("raised")).values("total")),
            everyones_tonight=Coalesce(
                Subquery(everyone.annotate(total=Sum("tonight_raised", filter=Q(tonight=today))).values("total")), 0
            ),
        )
        .filter(Q(on_overall=True) | Q(on_tonight=True))
        .select_related("team")
    )
    if champions:
        raised = {"overall": champions[0].everyones, "tonight": champions[0].everyones_tonight}
    else:  # nobody named on a board: what those off it brought still counts
        raised = everyone.aggregate(
            overall=Coalesce(Sum("raised"), 0), tonight=Coalesce(Sum("tonight_raised", filter=Q(tonight=today)), 0)
        )
    teams = list(Team.objects.filter(campaign=campaign).annotate(members=Count("champions")))
    moved_teams = [t for t in teams if t.tonight == today and (t.tonight_raised or getattr(t, tonight[1]))]
    return Leaderboards(
        overall=Board(
            champions=_standings([c for c in champions if c.on_overall], raised=overall[0], pledged=overall[1]),
            teams=_team_standings(teams, raised=overall[0], pledged=overall[1], size=size),
            raised=raised["overall"],
        ),
        tonight=Board(
            champions=_standings([c for c in champions if c.on_tonight], raised=tonight[0], pledged=tonight[1]),
            teams=_team_standings(moved_teams, raised=tonight[0], pledged=tonight[1], size=size),
            raised=raised["tonight"],
        ),
        since=tonight_start(),
    )


def champion_totals(*, champion: Champion) -> ChampionFigures:
    """One champion's figures for their page, from their running totals as their row was read (the
    public-figure rule, as the boards). No query."""
    public = champion.campaign.unsigned_pledges_count_after_payment
    return ChampionFigures(
        raised=champion.raised, pledged=champion.pledged_public if public else champion.pledged, gifts=champion.gifts
    )


def champion_open_get(*, code: str) -> Champion | None:
    """The champion with this code (as typed: any case, separators) if anyone may give through them
    now: their campaign visible to all, active, not past its end date (the phone channels). One query."""
    code = codes.normalize(code)
    if not codes.is_valid_code(code):
        return None
    champion = (
        Champion.objects.select_related("campaign__organizer", "campaign__organization").filter(code=code).first()
    )
    if champion is None:
        return None
    campaign = champion.campaign
    if not campaign.is_visible_to(None) or campaign.status != CampaignStatus.ACTIVE:
        return None
    return champion if campaign.end_date >= timezone.localdate() else None


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
    """Every champion of the campaign by name, with their card and their running totals (under the
    public-figure rule, as the boards), and every team's totals (what its champions brought, named on
    the board or not). Two queries."""
    champions = []
    for champion in Champion.objects.filter(campaign=campaign).select_related("card").order_by("name", "id"):
        champion.campaign = campaign  # the rule's campaign, already read: no query per champion
        figures = champion_totals(champion=champion)
        champions.append(
            RosterChampion(
                code=champion.code,
                name=champion.name,
                team_id=champion.team_id,
                goal=champion.goal,
                on_leaderboard=champion.on_leaderboard,
                card_number=champion.card.number,
                card_returned=champion.card.returned_at is not None,
                raised=figures.raised,
                pledged=figures.pledged,
            )
        )
    teams = []
    for team in Team.objects.filter(campaign=campaign):
        members = [champion for champion in champions if champion.team_id == team.pk]
        raised, pledged = sum(c.raised for c in members), sum(c.pledged for c in members)
        teams.append(TeamStanding(team.pk, team.name, team.goal, raised, pledged, len(members)))
    return Roster(champions=champions, teams=teams)
