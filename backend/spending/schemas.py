from datetime import date, datetime

from ninja import Field, Schema

from accounts.models import User
from spending.models import PayeeKind, ProgressUpdate, SpendingCategory, SpendingRecord
from spending.selectors import AccountabilityFigures, Amounts, ChartPoint


def receipt_path(record: SpendingRecord) -> str:
    return f"/api/spending/{record.pk}/receipt"


class SpendingAmountsOut(Schema):
    key: str
    label: str
    amount: int = Field(description="Whole KES.")

    @classmethod
    def of(cls, amounts: Amounts) -> "SpendingAmountsOut":
        return cls(key=amounts.key, label=amounts.label, amount=amounts.amount)


class SpendingChartPointOut(Schema):
    day: date
    money_in: int = Field(description="Raised up to this day, whole KES.")
    money_out: int = Field(description="Spent up to this day, whole KES.")

    @classmethod
    def of(cls, point: ChartPoint) -> "SpendingChartPointOut":
        return cls(day=point.day, money_in=point.money_in, money_out=point.money_out)


class SpendingFiguresOut(Schema):
    raised: int
    in_by_channel: list[SpendingAmountsOut]
    platform_fees: int
    spent: int
    spent_by_category: list[SpendingAmountsOut]
    left: int = Field(description="raised - platform_fees - spent")
    pledges_outstanding: int
    chart: list[SpendingChartPointOut]

    @classmethod
    def of(cls, figures: AccountabilityFigures) -> "SpendingFiguresOut":
        return cls(
            raised=figures.raised,
            in_by_channel=[SpendingAmountsOut.of(row) for row in figures.in_by_channel],
            platform_fees=figures.platform_fees,
            spent=figures.spent,
            spent_by_category=[SpendingAmountsOut.of(row) for row in figures.spent_by_category],
            left=figures.left,
            pledges_outstanding=figures.pledges_outstanding,
            chart=[SpendingChartPointOut.of(point) for point in figures.chart],
        )


class PublicLineOut(Schema):
    id: int
    spent_on: date
    payee: str = Field(description="A private person's name is masked to initials.")
    category: SpendingCategory
    category_label: str
    amount: int
    note: str
    receipt_url: str | None = Field(description="Only when the team published the receipt.")

    @classmethod
    def of(cls, record: SpendingRecord) -> "PublicLineOut":
        return cls(
            id=record.pk,
            spent_on=record.spent_on,
            payee=record.public_payee(),
            category=SpendingCategory(record.category),
            category_label=str(SpendingCategory(record.category).label),
            amount=record.amount,
            note=record.note if record.payee_kind == PayeeKind.ORGANIZATION else "",
            receipt_url=receipt_path(record) if record.publish_receipt and record.receipt_name else None,
        )


class ProgressUpdateOut(Schema):
    id: int
    text: str
    photo_urls: list[str]
    posted_at: datetime

    @classmethod
    def of(cls, update: ProgressUpdate) -> "ProgressUpdateOut":
        return cls(id=update.pk, text=update.text, photo_urls=list(update.photo_urls), posted_at=update.posted_at)


class AccountabilityOut(Schema):
    """'How the money was used': the figures, the lines that count and the team's progress updates."""

    campaign_id: int
    title: str
    figures: SpendingFiguresOut
    lines: list[PublicLineOut]
    updates: list[ProgressUpdateOut]


def _name(user: User | None) -> str:
    return (user.full_name or user.display_name) if user is not None else ""


class TeamLineOut(Schema):
    id: int
    spent_on: date
    payee: str
    payee_kind: PayeeKind
    category: SpendingCategory
    category_label: str
    amount: int
    account_label: str
    note: str
    receipt_url: str | None
    publish_receipt: bool
    status: str = Field(description="pending, approved, reversed (an approved or pending line reversed), reversal")
    recorded_by: str
    recorded_by_me: bool
    approved_by: str
    approved_at: datetime | None
    reverses_id: int | None
    created_at: datetime

    @classmethod
    def of(cls, record: SpendingRecord, *, viewer: User) -> "TeamLineOut":
        if record.reverses_id is not None:
            status = "reversal"
        elif hasattr(record, "reversal"):
            status = "reversed"
        else:
            status = record.status
        return cls(
            id=record.pk,
            spent_on=record.spent_on,
            payee=record.payee,
            payee_kind=PayeeKind(record.payee_kind),
            category=SpendingCategory(record.category),
            category_label=str(SpendingCategory(record.category).label),
            amount=record.amount,
            account_label=str(record.collection_account) if record.collection_account else "",
            note=record.note,
            receipt_url=receipt_path(record) if record.receipt_name else None,
            publish_receipt=record.publish_receipt,
            status=status,
            recorded_by=_name(record.recorded_by),
            recorded_by_me=record.recorded_by_id == viewer.pk,
            approved_by=_name(record.approved_by),
            approved_at=record.approved_at,
            reverses_id=record.reverses_id,
            created_at=record.created_at,
        )


class TeamSpendingOut(Schema):
    figures: SpendingFiguresOut
    lines: list[TeamLineOut]
    may_record: bool = Field(description="Whether the viewer may record, approve and reverse lines.")


class ReversalIn(Schema):
    reason: str = Field(min_length=1, max_length=500)


class ProgressUpdateIn(Schema):
    text: str = Field(min_length=1, max_length=2000)
    photo_urls: list[str] = Field(default_factory=list, max_length=6)


class ReportQuery(Schema):
    start: date | None = None
    end: date | None = None
