"""Reads of the ushers' desk: an usher's desk, an event's desk passcodes and its cash count."""

from dataclasses import dataclass

from django.db.models import Count, Max, Q, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.models import Campaign
from campaigns.selectors import campaign_get, campaign_managed_get, campaign_permission_check
from common.errors import NotFoundError, PermissionDeniedError
from desk.actors import DeskActor
from desk.models import CashCount, CashReconciliation, DeskEntry, DeskEntryKind, DeskPasscode, usher_key_of
from events.models import Event
from events.selectors import event_open_of
from organizations.roles import Permission

# What a desk lists of its own entries: enough to check the last few cards against the pile.
RECENT_ENTRIES = 10


@dataclass(frozen=True)
class Desk:
    campaign: Campaign
    event: Event | None
    usher_name: str
    by_passcode: bool
    can_issue_passcodes: bool
    entries_count: int
    entries_total: int
    recent: list[DeskEntry]


def desk_get(*, actor: DeskActor, campaign_id: int) -> Desk:
    """The desk of ``campaign_id`` for ``actor``: the event it records for (the open one; a
    passcode's own), and the usher's own entries there: how many, their sum, the latest. Four
    queries whatever the number of entries."""
    event: Event | None
    if actor.passcode is not None:
        event = actor.passcode.event
        if event.campaign_id != campaign_id or actor.passcode.expired:
            raise PermissionDeniedError(_("This passcode is not for this campaign's desk."), code="passcode_other")
        campaign = campaign_get(campaign_id=campaign_id, user=None)
    else:
        assert actor.user is not None
        campaign = campaign_managed_get(
            campaign_id=campaign_id,
            user=actor.user,
            permission=Permission.RECORD_AT_DESK,
            denied=_("Only the campaign's owners, treasurers and ushers, or an admin, can record at its desk."),
        )
        event = event_open_of(campaign=campaign)
    mine = DeskEntry.objects.none()
    if event is not None:
        mine = DeskEntry.objects.filter(event=event, usher=actor.user, passcode=actor.passcode)
    figures = mine.aggregate(count=Count("id"), total=Coalesce(Sum("amount", filter=Q(already_in_books=False)), 0))
    return Desk(
        campaign=campaign,
        event=event,
        usher_name=actor.name,
        by_passcode=actor.passcode is not None,
        can_issue_passcodes=actor.user is not None and campaign.allows(actor.user, Permission.RUN_EVENTS),
        entries_count=figures["count"],
        entries_total=figures["total"],
        recent=list(mine.select_related("pledge")[:RECENT_ENTRIES]) if event is not None else [],
    )


def event_of_campaign_get(*, user: User, event_id: int, permission: Permission, denied: str) -> Event:
    """The event (its campaign attached) if ``user`` has ``permission`` on its campaign: 404 if they
    cannot see the campaign, else 403 with ``denied``. Two queries."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(_("Event not found"), code="not_found")
    try:
        event.campaign = campaign_get(campaign_id=event.campaign_id, user=user)
    except NotFoundError:
        raise NotFoundError(_("Event not found"), code="not_found") from None
    campaign_permission_check(campaign=event.campaign, user=user, permission=permission, denied=denied)
    return event


def run_events_denied() -> str:
    return _("Only the campaign's owners, or an admin, can manage desk passcodes.")


@dataclass(frozen=True)
class IssuedPasscode:
    passcode: DeskPasscode
    entries_count: int


def desk_passcodes_of(*, user: User, event_id: int) -> list[IssuedPasscode]:
    """The desk passcodes issued for ``event_id``, the latest first, each with how many entries it
    added (owners and admins). Three queries."""
    event = event_of_campaign_get(
        user=user, event_id=event_id, permission=Permission.RUN_EVENTS, denied=run_events_denied()
    )
    passcodes = (
        DeskPasscode.objects.filter(event=event)
        .select_related("issued_by", "revoked_by")
        .annotate(entries_count=Count("entries"))
        .order_by("-issued_at", "-id")
    )
    issued = []
    for passcode in passcodes:
        passcode.event = event
        issued.append(IssuedPasscode(passcode=passcode, entries_count=passcode.entries_count))
    return issued


def reconcile_denied() -> str:
    return _("Only the campaign's owners and treasurers, or an admin, can count and sign off its cash.")


@dataclass(frozen=True)
class UsherCash:
    """One usher's cash at an event: what their desk recorded (as signed off, once it is) beside what
    was counted, and what their desk delivered after the sign-off."""

    key: str
    name: str
    recorded_count: int
    recorded_total: int
    count: CashCount | None
    late_count: int
    late_total: int

    @property
    def difference(self) -> int | None:
        """Counted minus recorded: below zero the usher's cash is short, above it over."""
        return None if self.count is None else self.count.counted - self.recorded_total


@dataclass(frozen=True)
class CashReckoning:
    event: Event
    reconciliation: CashReconciliation | None
    ushers: list[UsherCash]
    can_reconcile: bool

    @property
    def signed_off(self) -> bool:
        return self.reconciliation is not None and self.reconciliation.signed_off

    @property
    def recorded_total(self) -> int:
        return sum(usher.recorded_total for usher in self.ushers)

    @property
    def recorded_count(self) -> int:
        return sum(usher.recorded_count for usher in self.ushers)

    @property
    def counted_total(self) -> int:
        return sum(usher.count.counted for usher in self.ushers if usher.count is not None)

    @property
    def uncounted(self) -> list[UsherCash]:
        """The ushers whose desk recorded cash and whose cash has not been counted yet."""
        return [usher for usher in self.ushers if usher.count is None and usher.recorded_total > 0]

    @property
    def difference(self) -> int | None:
        """Counted minus recorded over every usher, once each one who recorded cash has been counted."""
        return None if self.uncounted else self.counted_total - self.recorded_total

    @property
    def late_count(self) -> int:
        return sum(usher.late_count for usher in self.ushers)

    @property
    def late_total(self) -> int:
        return sum(usher.late_total for usher in self.ushers)


@dataclass(frozen=True)
class RecordedCash:
    name: str
    count: int
    total: int


def cash_recorded_by_usher(*, event: Event) -> dict[str, RecordedCash]:
    """Each usher who recorded anything at ``event``'s desk (by ``usher_key_of``), with their cash
    entries: how many, and their sum, as of now. One query."""
    cash = Q(kind=DeskEntryKind.CASH)
    rows = (
        DeskEntry.objects.filter(event=event)
        .values("usher_id", "passcode_id")
        .annotate(name=Max("usher_name"), count=Count("id", filter=cash), total=Coalesce(Sum("amount", filter=cash), 0))
        .order_by()
    )
    return {
        usher_key_of(usher_id=row["usher_id"], passcode_id=row["passcode_id"]): RecordedCash(
            name=row["name"], count=row["count"], total=row["total"]
        )
        for row in rows
    }


def cash_reckoning_of(*, event: Event, user: User) -> CashReckoning:
    """``event``'s cash per usher (every usher who recorded at its desk, every volunteer it issued a
    passcode to, everyone counted), whose campaign is attached and already checked. Before the
    sign-off the recorded figures are the desk's as of now; once signed off, as they were signed,
    and what arrived since is counted apart. Four queries whatever the number of ushers and entries."""
    reconciliation = (
        CashReconciliation.objects.filter(event=event).select_related("signed_off_by", "reopened_by").first()
    )
    counts = (
        {count.usher_key: count for count in reconciliation.counts.select_related("counted_by")}
        if reconciliation is not None
        else {}
    )
    recorded = cash_recorded_by_usher(event=event)
    names = {key: figures.name for key, figures in recorded.items()}
    for passcode in DeskPasscode.objects.filter(event=event).only("pk", "volunteer"):
        names.setdefault(usher_key_of(usher_id=None, passcode_id=passcode.pk), passcode.volunteer)
    for key, counted in counts.items():
        names.setdefault(key, counted.usher_name)
    signed = reconciliation is not None and reconciliation.signed_off
    ushers = []
    for key, name in names.items():
        now = recorded.get(key, RecordedCash(name=name, count=0, total=0))
        count = counts.get(key)
        # Signed off: the figures as signed (an usher not counted then had nothing recorded).
        signed_count = (count.signed_recorded_count or 0) if signed and count is not None else 0
        signed_total = (count.signed_recorded_total or 0) if signed and count is not None else 0
        ushers.append(
            UsherCash(
                key=key,
                name=name,
                recorded_count=signed_count if signed else now.count,
                recorded_total=signed_total if signed else now.total,
                count=count,
                late_count=now.count - signed_count if signed else 0,
                late_total=now.total - signed_total if signed else 0,
            )
        )
    ushers.sort(key=lambda usher: (usher.name.casefold(), usher.key))
    return CashReckoning(
        event=event,
        reconciliation=reconciliation,
        ushers=ushers,
        can_reconcile=event.campaign.allows(user, Permission.RECONCILE_CASH),
    )


def cash_reckoning_get(*, user: User, event_id: int) -> CashReckoning:
    """The cash count of ``event_id`` for its campaign's owners, treasurers and viewers, and admins
    (only owners, treasurers and admins change it). Six queries whatever the number of ushers."""
    event = event_of_campaign_get(
        user=user,
        event_id=event_id,
        permission=Permission.SEE_PLEDGES,
        denied=_("Only the campaign's owners, treasurers and viewers, or an admin, can see its cash count."),
    )
    return cash_reckoning_of(event=event, user=user)
