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


class StatementImportOut(Schema):
    id: int
    status: Literal["previewed", "confirmed", "undone"]
    file_name: str
    account_id: int
    account_label: str
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
