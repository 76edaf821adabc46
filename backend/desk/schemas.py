"""What the desk API reads and answers. Money is whole KES."""

from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from common.money import AMOUNT_MAX
from desk.models import DeskEntry, DeskEntryKind, DeskPasscodeState
from desk.selectors import (
    CashReckoning,
    Desk,
    EntryMethod,
    EventReport,
    Figures,
    IssuedPasscode,
    ReportEntry,
    UsherCash,
    UsherFigures,
)
from desk.services import ThanksSent
from events.schemas import EventOut
from notifications.selectors import ThanksStatus
from pledges.schemas import PlanIn


class DeskEntryIn(Schema):
    # Letters, digits and dashes (a UUID, a hex token): it is a key, never text, and a control character
    # such as NUL is no key (PostgreSQL refuses it in a text column).
    idempotency_key: str = Field(
        min_length=8,
        max_length=64,
        pattern=r"^[A-Za-z0-9-]+$",
        description="Drawn by the desk when the entry is typed (letters, digits, dashes); sent again on retries.",
    )
    kind: DeskEntryKind
    amount: int = Field(ge=1, le=1_000_000_000)
    name: str = Field("", max_length=200)
    phone: str = Field("", max_length=32, description="Required for a pledge (its SMS goes there).")
    is_anonymous: bool = False
    mpesa_receipt: str = Field("", max_length=32, description="Required for an M-Pesa gift.")
    plan: PlanIn | None = Field(None, description="A pledge card's instalment plan, if its pledger chose one.")


class DeskEntryOut(Schema):
    id: int
    idempotency_key: str
    kind: DeskEntryKind
    amount: int
    usher_name: str
    pledge_code: str | None = Field(description="A pledge's code (its pledger gets it by SMS too).")
    already_in_books: bool = Field(description="An M-Pesa receipt already credited: counted once, not again.")
    created_at: datetime

    @classmethod
    def from_entry(cls, entry: DeskEntry) -> "DeskEntryOut":
        return cls(
            id=entry.pk,
            idempotency_key=entry.idempotency_key,
            kind=DeskEntryKind(entry.kind),
            amount=entry.amount,
            usher_name=entry.usher_name,
            pledge_code=entry.pledge.code if entry.pledge is not None else None,
            already_in_books=entry.already_in_books,
            created_at=entry.created_at,
        )


class DeskOut(Schema):
    campaign_id: int
    campaign_title: str
    event: EventOut | None = Field(description="The event the desk records for; none open: nothing can be added.")
    usher_name: str
    usher_key: str = Field(
        description="Who is at the desk, 'user-<id>' or 'passcode-<id>': a desk sends the entries it keeps only "
        "under the usher who typed them."
    )
    by_passcode: bool
    can_issue_passcodes: bool = Field(description="Owners and admins issue passcodes to volunteers.")
    entries_count: int = Field(description="This usher's entries at the event.")
    entries_total: int
    recent: list[DeskEntryOut]

    @classmethod
    def from_desk(cls, desk: Desk) -> "DeskOut":
        return cls(
            campaign_id=desk.campaign.pk,
            campaign_title=desk.campaign.title,
            event=EventOut.from_orm(desk.event) if desk.event is not None else None,
            usher_name=desk.usher_name,
            usher_key=desk.usher_key,
            by_passcode=desk.by_passcode,
            can_issue_passcodes=desk.can_issue_passcodes,
            entries_count=desk.entries_count,
            entries_total=desk.entries_total,
            recent=[DeskEntryOut.from_entry(entry) for entry in desk.recent],
        )


class DeskPasscodeIn(Schema):
    volunteer: str = Field(max_length=60)


class DeskPasscodeOut(Schema):
    passcode: str = Field(description="Shown once: only its hash is kept.")
    volunteer: str
    event_id: int


class DeskSignInIn(Schema):
    passcode: str = Field(max_length=32)


class DeskSignInOut(Schema):
    campaign_id: int
    event_id: int
    volunteer: str
    status: Literal["signed_in"] = "signed_in"


class DeskPasscodeListedOut(Schema):
    """A passcode as its event's owners see it: never the code (only its hash is kept)."""

    id: int
    volunteer: str
    issued_by: str | None
    issued_at: datetime
    entries_count: int = Field(description="The entries added with it.")
    state: DeskPasscodeState = Field(description="active; expired once its event closed; revoked by an owner.")
    revoked_by: str | None
    revoked_at: datetime | None

    @classmethod
    def from_issued(cls, issued: IssuedPasscode) -> "DeskPasscodeListedOut":
        passcode = issued.passcode
        return cls(
            id=passcode.pk,
            volunteer=passcode.volunteer,
            issued_by=passcode.issued_by.display_name if passcode.issued_by else None,
            issued_at=passcode.issued_at,
            entries_count=issued.entries_count,
            state=passcode.state,
            revoked_by=passcode.revoked_by.display_name if passcode.revoked_by else None,
            revoked_at=passcode.revoked_at,
        )


class CashCountIn(Schema):
    counted: int = Field(ge=0, le=AMOUNT_MAX, description="The cash counted for this usher, whole KES.")
    note: str = Field("", max_length=300, description="Needed before the sign-off when the count differs.")


class CashReopenIn(Schema):
    reason: str = Field(max_length=300)


class UsherCashOut(Schema):
    usher_key: str = Field(description="'user-<id>' or 'passcode-<id>': the path of its count.")
    usher_name: str
    recorded_count: int = Field(description="Cash entries the usher's desk recorded (as signed off, once it is).")
    recorded_total: int
    counted: int | None = Field(description="None until counted.")
    difference: int | None = Field(description="counted minus recorded: below 0 short, above 0 over.")
    note: str
    counted_by: str | None
    counted_at: datetime | None
    late_count: int = Field(description="Cash entries the usher's desk delivered after the sign-off.")
    late_total: int

    @classmethod
    def from_usher(cls, usher: UsherCash) -> "UsherCashOut":
        count = usher.count
        return cls(
            usher_key=usher.key,
            usher_name=usher.name,
            recorded_count=usher.recorded_count,
            recorded_total=usher.recorded_total,
            counted=count.counted if count is not None else None,
            difference=usher.difference,
            note=count.note if count is not None else "",
            counted_by=count.counted_by.display_name if count is not None and count.counted_by else None,
            counted_at=count.counted_at if count is not None else None,
            late_count=usher.late_count,
            late_total=usher.late_total,
        )


class CashReconciliationOut(Schema):
    event: EventOut
    can_reconcile: bool = Field(description="Owners, treasurers and admins count, sign off and reopen.")
    signed_off: bool = Field(description="Signed off: the counts are frozen until the sign-off is withdrawn.")
    signed_off_by: str | None
    signed_off_at: datetime | None
    reopened_by: str | None = Field(description="Who last withdrew a sign-off, when, and why.")
    reopened_at: datetime | None
    reopen_reason: str
    ushers: list[UsherCashOut]
    recorded_count: int
    recorded_total: int
    counted_total: int
    difference: int | None = Field(description="counted minus recorded over all ushers, once each one is counted.")
    uncounted: int = Field(description="Ushers who recorded cash and have not been counted yet.")
    late_count: int = Field(description="Cash entries delivered after the sign-off, not in its figures.")
    late_total: int

    @classmethod
    def from_reckoning(cls, reckoning: CashReckoning) -> "CashReconciliationOut":
        reconciliation = reckoning.reconciliation
        signed_off_by = reconciliation.signed_off_by if reconciliation is not None else None
        reopened_by = reconciliation.reopened_by if reconciliation is not None else None
        return cls(
            event=EventOut.from_orm(reckoning.event),
            can_reconcile=reckoning.can_reconcile,
            signed_off=reckoning.signed_off,
            signed_off_by=signed_off_by.display_name if signed_off_by is not None else None,
            signed_off_at=reconciliation.signed_off_at if reconciliation is not None else None,
            reopened_by=reopened_by.display_name if reopened_by is not None else None,
            reopened_at=reconciliation.reopened_at if reconciliation is not None else None,
            reopen_reason=reconciliation.reopen_reason if reconciliation is not None else "",
            ushers=[UsherCashOut.from_usher(usher) for usher in reckoning.ushers],
            recorded_count=reckoning.recorded_count,
            recorded_total=reckoning.recorded_total,
            counted_total=reckoning.counted_total,
            difference=reckoning.difference,
            uncounted=len(reckoning.uncounted),
            late_count=reckoning.late_count,
            late_total=reckoning.late_total,
        )


class FiguresOut(Schema):
    count: int
    amount: int = Field(description="Whole KES.")

    @classmethod
    def of(cls, figures: Figures) -> "FiguresOut":
        return cls(count=figures.count, amount=figures.amount)


class MethodFiguresOut(FiguresOut):
    method: EntryMethod


class UsherFiguresOut(Schema):
    usher_name: str
    pledge_cards: FiguresOut
    cash: FiguresOut
    mpesa: FiguresOut
    already_in_books: int = Field(description="M-Pesa receipts already in the books: counted once, not again.")

    @classmethod
    def of(cls, usher: UsherFigures) -> "UsherFiguresOut":
        return cls(
            usher_name=usher.usher_name,
            pledge_cards=FiguresOut.of(usher.pledge_cards),
            cash=FiguresOut.of(usher.cash),
            mpesa=FiguresOut.of(usher.mpesa),
            already_in_books=usher.already_in_books,
        )


class ReportEntryOut(Schema):
    """A pledge or gift of the night as Pledge Management shows it: the real name, an anonymous giver
    marked so (the report is for the campaign's team, never shown publicly)."""

    key: str = Field(description="'pledge-12' or 'gift-7': unique over the report.")
    kind: Literal["pledge", "gift"]
    id: int
    at: datetime = Field(description="When it was pledged, or when the gift was paid.")
    method: EntryMethod
    name: str
    is_anonymous: bool
    phone: str
    email: str
    amount: int
    paid_amount: int = Field(description="A pledge's payments so far; a gift is paid.")
    pledge_code: str | None
    usher_name: str | None = Field(description="Who typed it at the desk; null for every other channel.")
    new_pledger: bool = Field(description="Its pledger had no earlier pledge to the organization.")

    @classmethod
    def of(cls, line: ReportEntry) -> "ReportEntryOut":
        return cls(
            key=f"{line.kind}-{line.id}",
            kind="pledge" if line.kind == "pledge" else "gift",
            id=line.id,
            at=line.at,
            method=line.method,
            name=line.name,
            is_anonymous=line.is_anonymous,
            phone=line.phone,
            email=line.email,
            amount=line.amount,
            paid_amount=line.paid_amount,
            pledge_code=line.pledge_code or None,
            usher_name=line.usher_name or None,
            new_pledger=line.new_pledger,
        )


class ThanksStatusOut(Schema):
    """How the event's thank-you message stands, one count per giver thanked."""

    total: int = Field(description="Givers it was sent to (0: not sent yet).")
    waiting: int = Field(description="Waiting for the morning (none go out at night) or for the worker.")
    sent: int
    limited: int = Field(description="Not sent: the recipient had had their share of unasked messages.")
    failed: int

    @classmethod
    def of(cls, status: ThanksStatus) -> "ThanksStatusOut":
        return cls(
            total=status.total, waiting=status.waiting, sent=status.sent, limited=status.limited, failed=status.failed
        )


class ThanksIn(Schema):
    text: str = Field(
        max_length=1000,
        description="As the givers will read it; one SMS at most (notifications/sms_length.py: 160 characters "
        "of the GSM alphabet, extension characters counting two, else 70).",
    )


class ThanksSentOut(Schema):
    queued: int = Field(description="Givers thanked now (by SMS, or e-mail where they gave no number).")
    already_thanked: int = Field(description="Thanked before: not again.")
    opted_out: int = Field(description="Asked for no reminders (a link in one, or STOP): left out.")
    no_contact: int = Field(description="Gifts with neither a number nor an e-mail address.")

    @classmethod
    def of(cls, sent: ThanksSent) -> "ThanksSentOut":
        return cls(
            queued=sent.queued,
            already_thanked=sent.already_thanked,
            opted_out=sent.opted_out,
            no_contact=sent.no_contact,
        )


class EventReportOut(Schema):
    """The night's report: pledges made and gifts paid while the event was open, from every channel,
    and whatever its desk recorded. Whole KES."""

    event: EventOut
    campaign_id: int
    campaign_title: str
    pledged: FiguresOut = Field(description="The night's live pledges.")
    paid_against_pledges: int = Field(description="Paid so far towards the night's pledges.")
    given: FiguresOut = Field(description="The night's gifts (paid at once).")
    new_pledgers: int = Field(description="Pledgers (by phone) with no earlier pledge to the organization.")
    by_method: list[MethodFiguresOut]
    by_usher: list[UsherFiguresOut]
    entries: list[ReportEntryOut] = Field(description="Earliest first.")
    thanks: ThanksStatusOut
    shown_pledged: int = Field(
        description="Pledged tonight as the big screen shows it: the night's pledges under the campaign's "
        "public-figure rule, hidden entries left out (the screen's event.pledged_total)."
    )
    shown_given: int = Field(
        description="Given tonight as the big screen shows it: the night's gifts, hidden entries left out "
        "(the screen's event.given_total)."
    )

    @classmethod
    def from_report(cls, report: EventReport) -> "EventReportOut":
        return cls(
            event=EventOut.from_orm(report.event),
            campaign_id=report.event.campaign_id,
            campaign_title=report.event.campaign.title,
            pledged=FiguresOut.of(report.pledged),
            paid_against_pledges=report.paid_against_pledges,
            given=FiguresOut.of(report.given),
            new_pledgers=report.new_pledgers,
            by_method=[
                MethodFiguresOut(method=method, count=figures.count, amount=figures.amount)
                for method, figures in report.by_method.items()
            ],
            by_usher=[UsherFiguresOut.of(usher) for usher in report.by_usher],
            entries=[ReportEntryOut.of(line) for line in report.entries],
            thanks=ThanksStatusOut.of(report.thanks),
            shown_pledged=report.shown.pledged,
            shown_given=report.shown.given,
        )
