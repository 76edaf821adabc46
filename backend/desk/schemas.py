"""What the desk API reads and answers. Money is whole KES."""

from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from common.money import AMOUNT_MAX
from desk.models import DeskEntry, DeskEntryKind, DeskPasscodeState
from desk.selectors import CashReckoning, Desk, IssuedPasscode, UsherCash
from events.schemas import EventOut
from pledges.schemas import PlanIn


class DeskEntryIn(Schema):
    idempotency_key: str = Field(
        min_length=8, max_length=64, description="Drawn by the desk when the entry is typed; sent again on retries."
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
