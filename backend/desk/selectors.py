"""Reads of the ushers' desk: an usher's desk, an event's desk passcodes and its cash count, and the
night's report of an event (every channel, the desk's ushers)."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from django.db.models import Count, Max, Q, Sum
from django.db.models.functions import Coalesce, Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from campaigns.models import Campaign
from campaigns.selectors import campaign_get, campaign_managed_get, campaign_permission_check
from common.csv_export import csv_cell
from common.errors import NotFoundError, PermissionDeniedError, ServiceError
from desk.actors import DeskActor
from desk.models import CashCount, CashReconciliation, DeskEntry, DeskEntryKind, DeskPasscode, usher_key_of
from events.models import Event, EventState
from events.selectors import NightShown, during_event, event_night_shown, event_open_of
from notifications.selectors import ThanksStatus, event_thanks_status
from organizations.roles import Permission
from payments.models import Payment
from pledges.models import Donation, Pledge, PledgeChannel, shown_giver_name

# What a desk lists of its own entries: enough to check the last few cards against the pile.
RECENT_ENTRIES = 10


@dataclass(frozen=True)
class Desk:
    campaign: Campaign
    event: Event | None
    usher_name: str
    usher_key: str
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
        usher_key=actor.usher_key,
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


# The night's report ------------------------------------------------------------------------------


class EntryMethod(StrEnum):
    """How a pledge or gift of the night came in."""

    DESK_PLEDGE = "desk_pledge"  # a pledge card typed at the desk
    DESK_CASH = "desk_cash"
    DESK_MPESA = "desk_mpesa"  # M-Pesa to the church's number, its receipt typed at the desk
    WEB = "web"  # a pledge on the campaign page
    USSD = "ussd"  # a pledge on the USSD menu
    SMS = "sms"  # a PLEDGE text to the shortcode
    MPESA = "mpesa"  # a gift paid by M-Pesa online or by phone (PIN prompt or paybill)
    CARD = "card"
    OTHER = "other"  # a gift some other way (a bank transfer)


METHOD_LABELS = {
    EntryMethod.DESK_PLEDGE: gettext_lazy("Desk: pledge card"),
    EntryMethod.DESK_CASH: gettext_lazy("Desk: cash"),
    EntryMethod.DESK_MPESA: gettext_lazy("Desk: M-Pesa"),
    EntryMethod.WEB: gettext_lazy("Online pledge"),
    EntryMethod.USSD: gettext_lazy("Pledge by USSD"),
    EntryMethod.SMS: gettext_lazy("Pledge by SMS"),
    EntryMethod.MPESA: gettext_lazy("M-Pesa gift"),
    EntryMethod.CARD: gettext_lazy("Card gift"),
    EntryMethod.OTHER: gettext_lazy("Other gift"),
}
GIFT_METHODS = {
    Payment.Provider.MPESA_STK: EntryMethod.MPESA,
    Payment.Provider.MPESA_C2B: EntryMethod.MPESA,
    Payment.Provider.MPESA_MANUAL: EntryMethod.MPESA,
    Payment.Provider.CARD: EntryMethod.CARD,
}
PLEDGE_METHODS = {
    PledgeChannel.DESK: EntryMethod.DESK_PLEDGE,
    PledgeChannel.WEB: EntryMethod.WEB,
    PledgeChannel.USSD: EntryMethod.USSD,
    PledgeChannel.SMS: EntryMethod.SMS,
}
DESK_METHODS = {
    DeskEntryKind.PLEDGE: EntryMethod.DESK_PLEDGE,
    DeskEntryKind.CASH: EntryMethod.DESK_CASH,
    DeskEntryKind.MPESA: EntryMethod.DESK_MPESA,
}


@dataclass(frozen=True)
class ReportEntry:
    """A pledge or gift of the night as its organizers see it (Pledge Management's view: real names,
    an anonymous giver marked so)."""

    kind: str  # "pledge" or "gift"
    id: int
    at: datetime
    method: EntryMethod
    name: str
    is_anonymous: bool
    phone: str
    email: str
    language: str  # the one they gave in
    amount: int
    paid_amount: int  # a pledge's payments so far; a gift is paid
    pledge_code: str
    usher_name: str  # who typed it at the desk; "" for every other channel
    new_pledger: bool


@dataclass
class Figures:
    count: int = 0
    amount: int = 0

    def add(self, amount: int) -> None:
        self.count += 1
        self.amount += amount


@dataclass
class UsherFigures:
    """What one usher typed at the event's desk. An M-Pesa receipt already in the books is counted
    in ``already_in_books``, not in the amounts: it credited nothing again."""

    usher_name: str
    pledge_cards: Figures = field(default_factory=Figures)
    cash: Figures = field(default_factory=Figures)
    mpesa: Figures = field(default_factory=Figures)
    already_in_books: int = 0


@dataclass(frozen=True)
class EventReport:
    event: Event
    pledged: Figures
    paid_against_pledges: int
    given: Figures
    new_pledgers: int
    by_method: dict[EntryMethod, Figures]
    by_usher: list[UsherFigures]
    entries: list[ReportEntry]
    thanks: ThanksStatus
    shown: NightShown  # what its big screen showed of the night (the same definition)


def event_report_event_get(*, user: User, event_id: int, permission: Permission) -> Event:
    """The opened event whose report ``user`` may read (``SEE_PLEDGES``: owners, treasurers and
    viewers, who see the givers' details in Pledge Management already; ushers do not) or download
    (``MANAGE_PLEDGES``, as Pledge Management's exports), its campaign attached: 404 if they cannot
    see its campaign, else 403; an event not opened yet has no report (400)."""
    event = event_of_campaign_get(
        user=user,
        event_id=event_id,
        permission=permission,
        denied=_("Only the campaign's owners, treasurers and viewers, or an admin, can see its events' reports.")
        if permission == Permission.SEE_PLEDGES
        else _("Only the campaign's owners and treasurers, or an admin, can download its events' reports."),
    )
    if event.state == EventState.SCHEDULED:
        raise ServiceError(_("This event has not been opened yet."), code="event_not_open")
    return event


def _new_pledger_phones(*, event: Event, pledges: list[Pledge]) -> set[str]:
    """The night's new pledgers, each known by their phone number (every pledge has one). A pledger
    is new when the organization had no pledge (to any of its campaigns, a cancelled one too) made
    before the event opened with their number, nor with an e-mail address (in any case) or account
    that one of their pledges of the night carries. One query."""
    phones = {pledge.phone for pledge in pledges}
    emails = {pledge.email.lower() for pledge in pledges if pledge.email}
    users = {pledge.user_id for pledge in pledges if pledge.user_id is not None}
    earlier = (
        Pledge.objects.filter(campaign__organization_id=event.campaign.organization_id, created_at__lt=event.opened_at)
        .annotate(email_lower=Lower("email"))
        .filter(Q(phone__in=phones) | Q(email_lower__in=emails) | Q(user_id__in=users))
    )
    known_phones, known_emails, known_users = set(), set(), set()
    for phone, email, user_id in earlier.values_list("phone", "email", "user_id").distinct():
        known_phones.add(phone)
        known_emails.add(email.lower())
        known_users.add(user_id)
    known = {
        pledge.phone
        for pledge in pledges
        if pledge.phone in known_phones
        or (pledge.email and pledge.email.lower() in known_emails)
        or (pledge.user_id is not None and pledge.user_id in known_users)
    }
    return phones - known


def event_report_get(*, event: Event) -> EventReport:
    """The night's report of ``event``: the pledges made and gifts paid while it was open, from
    every channel, and whatever its desk recorded (a desk offline at the close delivers later:
    its entries still name this event); cancelled pledges left out. Totals, figures per way of
    giving and per usher, the new pledgers, and every entry, earliest first; how its thank-you message
    stands; and the night as its big screen showed it (``events.selectors.event_night_shown``). Eight
    queries whatever the size of the night (with ``event_report_event_get``'s, which reads the event)."""
    pledges = list(
        Pledge.objects.filter(campaign_id=event.campaign_id)
        .live()
        .filter(during_event(event, "created_at") | Q(desk_entry__event=event))
        .select_related("desk_entry")
        .order_by("created_at", "pk")
    )
    desk_entries = list(DeskEntry.objects.filter(event=event).order_by("already_in_books", "created_at", "pk"))
    gifts = list(
        Donation.objects.filter(campaign_id=event.campaign_id, counted_at__isnull=False)
        .filter(during_event(event, "counted_at") | Q(pk__in=[e.donation_id for e in desk_entries if e.donation_id]))
        .select_related("payment")
        .order_by("counted_at", "pk")
    )
    new_phones = _new_pledger_phones(event=event, pledges=pledges)
    gift_entries: dict[int, DeskEntry] = {}
    for desk_entry in desk_entries:
        if desk_entry.donation_id is not None:
            gift_entries.setdefault(desk_entry.donation_id, desk_entry)

    entries = [_pledge_line(pledge, new=pledge.phone in new_phones) for pledge in pledges]
    entries += [_gift_line(gift, gift_entries.get(gift.pk)) for gift in gifts]
    entries.sort(key=lambda line: (line.at, line.kind, line.id))
    by_method: dict[EntryMethod, Figures] = {}
    for line in entries:
        by_method.setdefault(line.method, Figures()).add(line.amount)
    pledged, given = Figures(), Figures()
    for pledge in pledges:
        pledged.add(pledge.amount)
    for gift in gifts:
        given.add(gift.amount)
    return EventReport(
        event=event,
        pledged=pledged,
        paid_against_pledges=sum(pledge.paid_amount for pledge in pledges),
        given=given,
        new_pledgers=len(new_phones),
        by_method={method: by_method[method] for method in EntryMethod if method in by_method},
        by_usher=_by_usher(desk_entries),
        entries=entries,
        thanks=event_thanks_status(event=event),
        shown=event_night_shown(event=event),
    )


def _desk_entry(pledge: Pledge) -> DeskEntry | None:
    try:
        return pledge.desk_entry
    except DeskEntry.DoesNotExist:
        return None


def _pledge_line(pledge: Pledge, *, new: bool) -> ReportEntry:
    desk_entry = _desk_entry(pledge)
    return ReportEntry(
        kind="pledge",
        id=pledge.pk,
        at=pledge.created_at,
        method=PLEDGE_METHODS[PledgeChannel(pledge.channel)],
        name=shown_giver_name(pledge.name, pledge.phone),
        is_anonymous=pledge.is_anonymous,
        phone=pledge.phone,
        email=pledge.email,
        language=pledge.language,
        amount=pledge.amount,
        paid_amount=pledge.paid_amount,
        pledge_code=pledge.code,
        usher_name=desk_entry.usher_name if desk_entry is not None else "",
        new_pledger=new,
    )


def _gift_line(gift: Donation, desk_entry: DeskEntry | None) -> ReportEntry:
    if desk_entry is not None:
        method = DESK_METHODS[DeskEntryKind(desk_entry.kind)]
    else:
        method = GIFT_METHODS.get(Payment.Provider(gift.payment.provider), EntryMethod.OTHER)
    assert gift.counted_at is not None  # only paid gifts are read
    return ReportEntry(
        kind="gift",
        id=gift.pk,
        at=gift.counted_at,
        method=method,
        name=shown_giver_name(gift.name),
        is_anonymous=gift.is_anonymous,
        phone=gift.phone,
        email=gift.email,
        language=gift.language,
        amount=gift.amount,
        paid_amount=gift.amount,
        pledge_code="",
        usher_name=desk_entry.usher_name if desk_entry is not None else "",
        new_pledger=False,
    )


def _by_usher(desk_entries: list[DeskEntry]) -> list[UsherFigures]:
    """Each usher's entries (an account, or a volunteer's passcode: two Marys stay two), by name."""
    ushers: dict[tuple[int | None, int | None], UsherFigures] = {}
    for desk_entry in desk_entries:
        figures = ushers.setdefault(
            (desk_entry.usher_id, desk_entry.passcode_id), UsherFigures(usher_name=desk_entry.usher_name)
        )
        if desk_entry.already_in_books:
            figures.already_in_books += 1
            continue
        kind = DeskEntryKind(desk_entry.kind)
        per_kind = {DeskEntryKind.PLEDGE: figures.pledge_cards, DeskEntryKind.CASH: figures.cash}
        per_kind.get(kind, figures.mpesa).add(desk_entry.amount)
    return sorted(ushers.values(), key=lambda usher: usher.usher_name.casefold())


def event_report_rows(*, report: EventReport) -> Iterator[list[str | int]]:
    """The night's entries as spreadsheet rows, a heading row first; names and e-mails as inert text."""
    yes, no = _("Yes"), _("No")
    yield [
        _("Time"),
        _("Kind"),
        _("Method"),
        _("Name"),
        _("Anonymous"),
        _("Phone"),
        _("Email"),
        _("Amount (KES)"),
        _("Paid (KES)"),
        _("Pledge code"),
        _("Usher"),
        _("New pledger"),
    ]
    for line in report.entries:
        yield [
            timezone.localtime(line.at).strftime("%Y-%m-%d %H:%M"),
            _("Pledge") if line.kind == "pledge" else _("Gift"),
            str(METHOD_LABELS[line.method]),
            csv_cell(line.name),
            yes if line.is_anonymous else no,
            line.phone,
            csv_cell(line.email),
            line.amount,
            line.paid_amount,
            line.pledge_code,
            csv_cell(line.usher_name),
            yes if line.new_pledger else no,
        ]
