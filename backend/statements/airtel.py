"""Airtel Money merchant statements: read into the rows the statements app previews, confirms and
undoes like an M-Pesa statement's (``statements.parsing.StatementRow``).

The columns, as the Airtel Money merchant portal's CSV/Excel export names them (several spellings
taken, compared without case, spaces or punctuation): Transaction ID (Airtel's ``airtel_money_id``,
e.g. ``MP261128.1054.A12345``), Transaction Date, Sender MSISDN, Sender Name, Transaction Type,
Reference (what the payer gave: the pledge code; our push sends the code as its reference), Amount,
Status. A negative amount is money out (a settlement, a charge) and is ignored, as is any row
whose status is not a success.
"""

import re

from django.utils.translation import gettext as _

from statements.parsing import Statement, StatementRow, _amount, _key, _moment
from statements.reading import ROWS_MAX, StatementError, statement_lines

COLUMNS: dict[str, tuple[str, ...]] = {
    "receipt": ("transactionid", "txnid", "airtelmoneyid", "transid", "referenceid"),
    "completed_at": ("transactiondate", "date", "datetime", "transactiondatetime", "transactiontime"),
    "msisdn": ("sendermsisdn", "msisdn", "payermsisdn", "sendernumber", "fromaccount"),
    "name": ("sendername", "name", "payername", "customername"),
    "type": ("transactiontype", "type", "servicetype"),
    "reference": ("reference", "referencenumber", "externalreference", "narration", "remarks"),
    "amount": ("amount", "credit", "amountkes", "transactionamount"),
    "status": ("status", "transactionstatus"),
}
REQUIRED = ("receipt", "completed_at", "amount")
_NAMES = {name: field for field, names in COLUMNS.items() for name in names}
_ID = re.compile(r"^[A-Z0-9][A-Z0-9.\-]{5,31}$")
_SUCCESS = ("success", "successful", "ts", "completed", "")


def _header(cells: list[str]) -> dict[str, int] | None:
    positions: dict[str, int] = {}
    for index, cell in enumerate(cells):
        field = _NAMES.get(_key(cell))
        if field is not None and field not in positions:
            positions[field] = index
    return positions if all(field in positions for field in REQUIRED) else None


def _row(line: int, cells: list[str], positions: dict[str, int]) -> StatementRow:
    def cell(field: str) -> str:
        index = positions.get(field)
        return cells[index].strip() if index is not None and index < len(cells) else ""

    receipt = cell("receipt").upper()
    if not _ID.match(receipt):
        raise StatementError(
            _("This is not an Airtel Money transaction id: %(value)s") % {"value": receipt[:40]}, line=line
        )
    raw_amount = cell("amount")
    amount = _amount(raw_amount, line=line, column=_("Amount"), cents_allowed=raw_amount.lstrip().startswith("-"))
    money_out = raw_amount.lstrip().startswith("-")
    status = cell("status")
    name = cell("name")
    return StatementRow(
        line=line,
        receipt=receipt,
        completed_at=_moment(cell("completed_at"), line=line),
        details=cell("type"),
        status="Completed" if status.casefold() in _SUCCESS else status,
        paid_in=0 if money_out else amount,
        withdrawn=amount if money_out else 0,
        reason_type=cell("type"),
        other_party=f"{cell('msisdn')} - {name}" if name else cell("msisdn"),
        linked_receipt="",
        account_number=cell("reference"),
    )


def airtel_statement_parse(data: bytes) -> Statement:
    """The Airtel Money statement in ``data`` (CSV or Excel), or ``StatementError``."""
    positions: dict[str, int] | None = None
    rows: list[StatementRow] = []
    for line, raw in statement_lines(data):
        cells = [cell.strip() for cell in raw]
        if not any(cells):
            continue
        if positions is None:
            positions = _header(cells)
            continue
        if len(rows) >= ROWS_MAX:
            raise StatementError(_("A statement may have at most %(count)d rows.") % {"count": ROWS_MAX}, line=line)
        rows.append(_row(line, cells, positions))
    if positions is None:
        raise StatementError(
            _(
                "No header row with the columns Transaction ID, Transaction Date and Amount was found. "
                "Upload the statement as the Airtel Money merchant portal exports it."
            )
        )
    if not rows:
        raise StatementError(_("The statement has no transactions."))
    return Statement(shortcode="", rows=rows)
