"""What the desk API reads and answers. Money is whole KES."""

from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from desk.models import DeskEntry, DeskEntryKind
from desk.selectors import Desk
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
