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
    event_pledged_total: int
    instructions: list[Instruction]
    entries: list[LiveEntry]


def live_screen_get(*, campaign: Campaign) -> LiveScreen:
    """What every big screen of ``campaign`` shows: its totals, how to pay, and the newest
    ``FEED_LIMIT`` pledges and gifts not hidden by its team, since its open event opened (the
    campaign's latest when none is open). Five queries whatever the number of entries."""
    event = event_open_of(campaign=campaign)
    pledges = Pledge.objects.filter(campaign=campaign, hidden_entry__isnull=True).live().order_by("-created_at", "-id")
    donations = Donation.objects.filter(campaign=campaign, hidden_entry__isnull=True).paid()
    if event is not None:
        pledges = pledges.filter(created_at__gte=event.opened_at)
        donations = donations.filter(counted_at__gte=event.opened_at)
    sums = {"paid": Coalesce(Sum("paid_amount"), 0)}
    if event is not None:
        sums["tonight"] = Coalesce(Sum("amount", filter=Q(created_at__gte=event.opened_at)), 0)
    totals = Pledge.objects.filter(campaign=campaign).live().aggregate(**sums)
    entries = [_pledge_entry(pledge) for pledge in pledges[:FEED_LIMIT]]
    entries += [_gift_entry(donation) for donation in donations[:FEED_LIMIT]]
    entries.sort(key=lambda entry: (entry.at, entry.id), reverse=True)
    return LiveScreen(
        campaign=campaign,
        event=event,
        paid_total=totals["paid"],
        event_pledged_total=totals.get("tonight", 0),
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
