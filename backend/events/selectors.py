"""Reads of events, of the big screen (GET /api/campaigns/{id}/live) and of the entries hidden from it."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from campaigns.models import Campaign, CampaignStatus
from campaigns.selectors import campaign_get, campaign_payment_instructions
from collection_accounts.instructions import Instruction
from common.errors import NotFoundError
from events.models import Event, HiddenEntry
from pledges.models import Donation, Pledge
from pledges.schemas import DonationOut, PledgeOut

# A projector shows about a dozen lines; the rest is there for phones that scroll and for a screen
# catching up after its network came back.
FEED_LIMIT = 30


def events_of(*, campaign: Campaign) -> list[Event]:
    """The campaign's events, the latest announced first. One query."""
    return list(Event.objects.filter(campaign=campaign))


def event_open_of(*, campaign: Campaign) -> Event | None:
    """The event the campaign is running now, if any (at most one: a constraint). One query."""
    return Event.objects.filter(campaign=campaign, opened_at__isnull=False, closed_at__isnull=True).first()


def event_held_at(*, campaign_id: int, at: datetime) -> Event | None:
    """The event of the campaign that was open at ``at`` (opened at or before it, not closed by then),
    if any. One query."""
    return (
        Event.objects.filter(campaign_id=campaign_id, opened_at__lte=at)
        .filter(Q(closed_at__isnull=True) | Q(closed_at__gt=at))
        .first()
    )


def event_entries(*, event: Event) -> tuple[list[Pledge], list[Donation]]:
    """The pledges made and gifts paid while ``event`` was open, earliest first, hidden ones included
    (they are in the books). Two queries."""
    pledges = Pledge.objects.filter(campaign_id=event.campaign_id, created_at__gte=event.opened_at).live()
    donations = Donation.objects.filter(campaign_id=event.campaign_id, counted_at__gte=event.opened_at)
    if event.closed_at is not None:
        pledges = pledges.filter(created_at__lt=event.closed_at)
        donations = donations.filter(counted_at__lt=event.closed_at)
    return list(pledges.order_by("created_at", "pk")), list(donations.order_by("counted_at", "pk"))


def during_event(event: Event, field_name: str) -> Q:
    """Made between the event's opening and its closing (``event_held_at``'s rule)."""
    during = Q(**{f"{field_name}__gte": event.opened_at})
    if event.closed_at is not None:
        during &= Q(**{f"{field_name}__lt": event.closed_at})
    return during


@dataclass(frozen=True)
class NightShown:
    """The night's figures as its big screen shows them, the one definition the screen and the
    night's report share: ``pledged``, the live pledges made while the event was open or typed at
    its desk, under the campaign's public-figure rule (``Campaign.public_pledged_total``: with
    ``unsigned_pledges_count_after_payment``, only those made signed in or paid in part); ``given``,
    the gifts paid at once while it was open or recorded at its desk (cash, M-Pesa and card, at the
    desk or online). Entries its team hid from the screen are left out of both."""

    pledged: int
    given: int


def event_night_shown(*, event: Event) -> NightShown:
    """The night's figures as its screen shows them (``NightShown``). Two queries."""
    campaign = event.campaign
    # An entry typed at a desk that was offline at the close still names this event (desk.DeskEntry);
    # a gift's receipt may have been typed twice there, hence the subquery rather than a join.
    pledges = (
        Pledge.objects.filter(campaign_id=event.campaign_id, hidden_entry__isnull=True)
        .live()
        .filter(during_event(event, "created_at") | Q(desk_entry__event=event))
    )
    if campaign.unsigned_pledges_count_after_payment:
        pledges = pledges.filter(Q(user__isnull=False) | Q(paid_amount__gt=0))
    gifts = Donation.objects.filter(
        campaign_id=event.campaign_id, counted_at__isnull=False, hidden_entry__isnull=True
    ).filter(
        during_event(event, "counted_at") | Q(pk__in=Donation.objects.filter(desk_entries__event=event).values("pk"))
    )
    return NightShown(
        pledged=pledges.aggregate(total=Coalesce(Sum("amount"), 0))["total"],
        given=gifts.aggregate(total=Coalesce(Sum("amount"), 0))["total"],
    )


def live_campaign_get(*, campaign_id: int) -> Campaign:
    """The campaign a big screen may show: active ones only (nothing private is ever on it). One query."""
    campaign = campaign_get(campaign_id=campaign_id, user=None)
    if campaign.status != CampaignStatus.ACTIVE:
        raise NotFoundError(_("Campaign not found"), code="not_found")
    return campaign


@dataclass(frozen=True)
class LiveEntry:
    """A line of the feed, as the campaign page would show it to a visitor (masked)."""

    key: str  # "pledge-12" or "gift-7": unique, so a screen that catches up never shows one twice
    kind: str
    id: int
    name: str
    amount: int
    at: datetime


@dataclass(frozen=True)
class LiveScreen:
    campaign: Campaign
    event: Event | None
    paid_total: int
    night: NightShown | None  # the open event's figures; None between events
    instructions: list[Instruction]
    entries: list[LiveEntry]


def live_screen_get(*, campaign: Campaign) -> LiveScreen:
    """What every big screen of ``campaign`` shows: its totals, how to pay, and the newest
    ``FEED_LIMIT`` pledges and gifts not hidden by its team, since its open event opened (the
    campaign's latest when none is open), and the open event's figures (``event_night_shown``). Six
    queries whatever the number of entries (four between events)."""
    event = event_open_of(campaign=campaign)
    pledges = Pledge.objects.filter(campaign=campaign, hidden_entry__isnull=True).live().order_by("-created_at", "-id")
    donations = Donation.objects.filter(campaign=campaign, hidden_entry__isnull=True).paid()
    if event is not None:
        pledges = pledges.filter(created_at__gte=event.opened_at)
        donations = donations.filter(counted_at__gte=event.opened_at)
    paid = Pledge.objects.filter(campaign=campaign).live().aggregate(paid=Coalesce(Sum("paid_amount"), 0))["paid"]
    if event is not None:
        event.campaign = campaign
    entries = [_pledge_entry(pledge) for pledge in pledges[:FEED_LIMIT]]
    entries += [_gift_entry(donation) for donation in donations[:FEED_LIMIT]]
    entries.sort(key=lambda entry: (entry.at, entry.id), reverse=True)
    return LiveScreen(
        campaign=campaign,
        event=event,
        paid_total=paid,
        night=event_night_shown(event=event) if event is not None else None,
        instructions=campaign_payment_instructions(campaign=campaign, reference=None),
        entries=entries[:FEED_LIMIT],
    )


@dataclass(frozen=True)
class HiddenLiveEntry:
    entry: LiveEntry
    hidden_at: datetime


def hidden_entries_of(*, campaign: Campaign) -> list[HiddenLiveEntry]:
    """The entries the campaign's team hid from its big screens, the last hidden first, each as the
    screen would show it. One query."""
    hidden = (
        HiddenEntry.objects.filter(campaign=campaign)
        .select_related("pledge", "donation__payment")
        .order_by("-hidden_at", "-id")
    )
    return [HiddenLiveEntry(entry=_hidden_entry(row), hidden_at=row.hidden_at) for row in hidden]


def _hidden_entry(row: HiddenEntry) -> LiveEntry:
    if row.pledge is not None:
        return _pledge_entry(row.pledge)
    assert row.donation is not None  # events_hidden_entry_one_kind: one or the other
    return _gift_entry(row.donation)


def _pledge_entry(pledge: Pledge) -> LiveEntry:
    shown = PledgeOut.for_viewer(pledge, manages=False)
    return LiveEntry(
        key=f"pledge-{pledge.pk}",
        kind="pledge",
        id=pledge.pk,
        name=shown.name,
        amount=pledge.amount,
        at=pledge.created_at,
    )


def _gift_entry(donation: Donation) -> LiveEntry:
    shown = DonationOut.for_viewer(donation, manages=False)
    return LiveEntry(
        key=f"gift-{donation.pk}",
        kind="gift",
        id=donation.pk,
        name=shown.name,
        amount=donation.amount,
        # A gift not paid yet is never on the screen, but may have been hidden: when it was made.
        at=donation.counted_at or donation.created_at,
    )
