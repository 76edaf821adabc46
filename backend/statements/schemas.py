from datetime import datetime
from typing import Literal

from ninja import Schema
from pydantic import Field

Category = Literal["matched", "recorded", "keyword", "unmatched", "ignored"]


class CategoryFigures(Schema):
    rows: int
    total: int = Field(description="Whole KES.")


class StatementRowOut(Schema):
    line: int = Field(description="The row's line in the file.")
    receipt: str
    completed_at: datetime
    amount: int
    account_number: str
    payer: str
    category: Category
    pledge_code: str = Field(description="The pledge a matched row is credited to.")
    campaign_title: str
    near_codes: list[str] = Field(description="This organization's pledge codes one typo from an unmatched row's.")
    beyond_pledge: int = Field(
        0, description="How much of a matched row would pay its pledge beyond the pledge's amount (0: none)."
    )
    details: str = Field(description="The row's details (M-Pesa) or description (bank).")


class StatementImportOut(Schema):
    id: int
    status: Literal["previewed", "confirmed", "undone"]
    file_name: str
    account_id: int
    account_label: str
    account_kind: str = Field(
        description="The account's kind: paybill or till (M-Pesa), bank or paybill_fixed_account."
    )
    created_at: datetime
    confirmed_at: datetime | None
    undone_at: datetime | None
    undo_reason: str
    receipts_sent: bool
    figures: dict[Category, CategoryFigures] = Field(
        description="Rows and shillings of each kind: now for a preview, as confirmed otherwise."
    )
    rows: list[StatementRowOut] = Field(description="Every row, for a preview only (empty once confirmed).")


class StatementImportConfirmIn(Schema):
    send_receipts: bool = Field(
        default=False, description="Also send receipts for money received more than 3 days ago."
    )


class StatementImportUndoIn(Schema):
    reason: str


class BankColumnsSchema(Schema):
    """Which header of a bank statement holds what; blank: none."""

    date: str
    amount: str = Field(description="Money in (Credit), or a signed Amount when there is no debit column.")
    debit: str = ""
    reference: str = ""
    description: str = ""


class BankColumnsChoiceOut(Schema):
    header: list[str] = Field(description="The file's column names, in its order.")
    columns: BankColumnsSchema = Field(description="The account's remembered columns, else suggested ones.")
    remembered: bool
