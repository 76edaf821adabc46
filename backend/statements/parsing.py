"""M-Pesa Org Portal and bank statements (CSV or Excel) → typed rows, or one clear refusal naming the line.

Pure: bytes in, ``Statement`` out; no database. The Org Portal's column names vary slightly between
exports and versions (protocols.md), so a header is recognised by its letters and digits alone
("Receipt No." = "receipt no" = "ReceiptNo"), and the header row is the first row naming a receipt,
a completion time and a paid-in column; the lines above it ("Short Code: 600100", "Time Period: …")
are read for the statement's shortcode. Line numbers are the file's own (1 for its first line; the
row number in a worksheet), so a treasurer can find the line the message names.

The file's bytes become numbered lines of cells in ``statements.reading`` (CSV or Excel, as a
stream within budgets, formulas refused); here those cells become rows, by the value rules below.
"""

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_CEILING, Decimal, InvalidOperation
from functools import partial
from zoneinfo import ZoneInfo

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

# The file is read as a stream within budgets by statements.reading; its limit and error are this module's too.
from statements.reading import ROWS_MAX, StatementError, statement_lines
from statements.reading import STATEMENT_MAX_BYTES as STATEMENT_MAX_BYTES


@dataclass(frozen=True)
class StatementRow:
    line: int
    receipt: str
    completed_at: datetime
    details: str
    status: str
    paid_in: int
    withdrawn: int
    reason_type: str
    other_party: str
    linked_receipt: str
    account_number: str

    @property
    def is_completed(self) -> bool:
        return self.status.casefold() in ("completed", "")

    @property
    def is_reversal(self) -> bool:
        return "reversal" in self.reason_type.casefold() or "reversal" in self.details.casefold()


@dataclass(frozen=True)
class Statement:
    shortcode: str  # as stated above the header; empty when the export does not say
    rows: list[StatementRow]


# Each field, and the normalised header names it goes by.
COLUMNS: dict[str, tuple[str, ...]] = {
    "receipt": ("receiptno", "receipt", "receiptnumber", "transactionid", "transid"),
    "completed_at": ("completiontime", "completedtime", "completiondate", "transactiontime", "transactiondate"),
    "initiated_at": ("initiationtime",),
    "details": ("details", "description", "transactiondetails"),
    "status": ("transactionstatus", "status"),
    "paid_in": ("paidin", "moneyin", "credit", "amountin"),
    "withdrawn": ("withdrawn", "withdrawal", "paidout", "moneyout", "debit"),
    "reason_type": ("reasontype", "transactiontype", "type"),
    "other_party": ("otherpartyinfo", "otherparty", "otherpartyinformation"),
    "linked_receipt": ("linkedtransactionid", "linkedtransaction", "linkedreceipt"),
    "account_number": ("acno", "accountno", "accountnumber", "billrefnumber", "acnumber", "billreference"),
}
REQUIRED = ("receipt", "completed_at", "paid_in")
_HEADER_NAMES = {name: field for field, names in COLUMNS.items() for name in names}
_SHORTCODE_LABELS = ("shortcode", "organisationshortcode", "organizationshortcode", "paybill", "tillnumber")
_RECEIPT = re.compile(r"^[A-Z0-9]{8,12}$")
_DATE_FORMATS = (
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M:%S",
    "%d-%m-%Y %H:%M:%S",
    "%d-%m-%Y %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
    "%d.%m.%Y %H:%M:%S",
    "%Y-%m-%d",
    "%d-%m-%Y",
    "%d/%m/%Y",
)
# The Org Portal writes Nairobi's time, without saying so.
NAIROBI = ZoneInfo("Africa/Nairobi")
_EXCEL_EPOCH = datetime(1899, 12, 30, tzinfo=NAIROBI)


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.casefold())


def _amount(cell: str, *, line: int, column: str, cents_allowed: bool = False) -> int:
    """Whole shillings from ``1,000.00``, ``1000`` or ``-500.00`` (the sign dropped: a column says its
    direction); blank is 0. Money paid in is recorded, so it must be whole shillings; money out
    (``cents_allowed``: till charges, a settlement to the bank) is only told apart from money in, so
    its cents are rounded up, never down to nothing."""
    text = cell.replace(",", "").replace("Ksh", "").replace("KES", "").strip().lstrip("+-").strip()
    if not text:
        return 0
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise StatementError(
            _("%(column)s is not an amount: %(value)s") % {"column": column, "value": cell[:40]}, line=line
        ) from None
    if cents_allowed:
        return int(value.to_integral_value(rounding=ROUND_CEILING))
    if value != value.to_integral_value():
        raise StatementError(
            _("%(column)s is not whole shillings: %(value)s") % {"column": column, "value": cell[:40]}, line=line
        )
    return int(value)


def _moment(cell: str, *, line: int) -> datetime:
    text = cell.strip()
    for pattern in _DATE_FORMATS:
        try:
            return datetime.strptime(text, pattern).replace(tzinfo=NAIROBI)
        except ValueError:
            continue
    try:  # an Excel date serial, from a cell formatted as a date
        serial = float(text)
    except ValueError:
        serial = 0.0
    if 20_000 < serial < 80_000:
        return (_EXCEL_EPOCH + timedelta(days=serial)).replace(microsecond=0)
    raise StatementError(_("The completion time is not a date: %(value)s") % {"value": text[:40]}, line=line)


def _shortcode(cells: list[str]) -> str:
    """The digits after a "Short Code:" label (in its own cell or the same one), if these cells are one."""
    for index, cell in enumerate(cells):
        label, _sep, rest = cell.partition(":")
        if _key(label) in _SHORTCODE_LABELS:
            value = rest.strip() or next((c.strip() for c in cells[index + 1 :] if c.strip()), "")
            return value if value.isdigit() else ""
    return ""


def _header(cells: list[str]) -> dict[str, int] | None:
    """Which column holds each field, when ``cells`` is the header row."""
    positions: dict[str, int] = {}
    for index, cell in enumerate(cells):
        field = _HEADER_NAMES.get(_key(cell))
        if field is not None and field not in positions:
            positions[field] = index
    return positions if all(field in positions for field in REQUIRED) else None


def _row(line: int, cells: list[str], positions: dict[str, int]) -> StatementRow:
    def cell(field: str) -> str:
        index = positions.get(field)
        return cells[index] if index is not None and index < len(cells) else ""

    receipt = cell("receipt").upper()
    if not _RECEIPT.match(receipt):
        raise StatementError(_("This is not an M-Pesa receipt number: %(value)s") % {"value": receipt[:40]}, line=line)
    return StatementRow(
        line=line,
        receipt=receipt,
        completed_at=_moment(cell("completed_at") or cell("initiated_at"), line=line),
        details=cell("details"),
        status=cell("status"),
        paid_in=_amount(cell("paid_in"), line=line, column=pgettext("statement column", "Paid in")),
        withdrawn=_amount(
            cell("withdrawn"), line=line, column=pgettext("statement column", "Withdrawn"), cents_allowed=True
        ),
        reason_type=cell("reason_type"),
        other_party=cell("other_party"),
        linked_receipt=cell("linked_receipt").upper(),
        account_number=cell("account_number"),
    )


def statement_rows(lines: Iterator[tuple[int, list[str]]]) -> Statement:
    """A statement from its numbered lines of cells, however they were read."""
    shortcode = ""
    positions: dict[str, int] | None = None
    rows: list[StatementRow] = []
    for line, raw in lines:
        cells = [cell.strip() for cell in raw]
        if not any(cells):
            continue
        if positions is None:
            positions = _header(cells)
            shortcode = shortcode or _shortcode(cells)
            continue
        if len(rows) >= ROWS_MAX:
            raise StatementError(_("A statement may have at most %(count)d rows.") % {"count": ROWS_MAX}, line=line)

        rows.append(_row(line, cells, positions))
    if positions is None:
        raise StatementError(
            _(
                "No header row with the columns Receipt No., Completion Time and Paid In was found. "
                "Upload the statement as the M-Pesa Org Portal exports it."
            )
        )
    if not rows:
        raise StatementError(_("The statement has no transactions."))
    return Statement(shortcode=shortcode, rows=rows)


def statement_parse(data: bytes) -> Statement:
    """The M-Pesa statement in ``data``, or ``StatementError``."""
    return statement_rows(statement_lines(data))


# Bank statements -------------------------------------------------------------------------------
#
# Banks export statements in formats of their own, so the treasurer says once per bank account which
# column holds what (``BankColumns``, remembered by the statements app). The header row is the first
# row naming every chosen column; before a choice is made it is the first row of at least three names
# (``bank_statement_header``), as the lines above it are the account's name, number and period.
# A bank row becomes a ``StatementRow`` like an M-Pesa row: its reference in ``receipt`` and
# ``account_number``, its description in ``details``, money in and out in ``paid_in`` and ``withdrawn``.


@dataclass(frozen=True)
class BankColumns:
    """The header names of a bank statement's columns. ``amount`` is the money received; without a
    ``debit`` column it is a signed amount (``-500.00``, ``(500.00)`` or ``500.00 DR`` is money out), as
    some banks export one Amount column and most a Credit and a Debit one."""

    date: str
    amount: str
    debit: str = ""
    reference: str = ""
    description: str = ""

    def named(self) -> list[str]:
        return [name for name in (self.date, self.amount, self.debit, self.reference, self.description) if name]


@dataclass(frozen=True)
class BankHeader:
    line: int
    columns: list[str]  # each non-empty header cell, once, in the file's order


# A column's usual names in Kenyan banks' exports (normalised as ``_key`` does), for the first mapping.
BANK_COLUMN_NAMES: dict[str, tuple[str, ...]] = {
    "date": ("transactiondate", "trandate", "txndate", "date", "postingdate", "postdate", "bookingdate", "valuedate"),
    "amount": ("credit", "credits", "creditamount", "moneyin", "paidin", "deposit", "deposits", "cr", "amount"),
    "debit": ("debit", "debits", "debitamount", "moneyout", "paidout", "withdrawal", "withdrawals", "dr"),
    "reference": ("reference", "transactionreference", "referenceno", "refno", "ref", "chequeno", "customerreference"),
    "description": ("description", "narration", "narrative", "details", "transactiondetails", "particulars", "remarks"),
}
# Money in with cents (interest) cannot be recorded in whole shillings: shown, and ignored.
NOT_WHOLE_SHILLINGS = "not whole shillings"
_BANK_DATE_FORMATS = (
    "%d/%m/%Y",
    "%d-%m-%Y",
    "%d.%m.%Y",
    "%Y-%m-%d",
    "%Y/%m/%d",
    "%d %b %Y",
    "%d-%b-%Y",
    "%d-%b-%y",
    "%d %B %Y",
    "%d/%m/%y",
)
# A date without a time counts at midday, as a treasurer's entry with a date does (payments.services).
_BANK_DAY_TIME = 12
_DEBIT_SUFFIX = re.compile(r"\s*(DR|CR)\.?$", re.IGNORECASE)


def _is_name(cell: str) -> bool:
    return bool(re.search(r"[A-Za-z]", cell)) and not re.search(
        r"\d[\d,]*\.\d\d$|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}", cell
    )


def _is_bank_header(cells: list[str], wanted: set[str]) -> bool:
    """Whether ``cells`` name each ``wanted`` column, or with none wanted, are at least three names."""
    names = [cell for cell in cells if cell]
    if wanted:
        return wanted <= {_key(name) for name in names}
    return len(names) >= 3 and all(map(_is_name, names))


def _no_bank_header(columns: BankColumns | None) -> StatementError:
    if columns:
        return StatementError(
            _("No header row with the columns %(columns)s was found. Choose the statement's columns again.")
            % {"columns": ", ".join(columns.named())}
        )
    return StatementError(_("No header row was found: the statement needs a row naming its columns."))


def _bank_table(data: bytes, *, columns: BankColumns | None) -> tuple[int, list[str], Iterator[tuple[int, list[str]]]]:
    """The header row of the bank statement in ``data`` (its line and cells) and the lines after it, in
    one walk of the file: the first row naming each of ``columns``, or without them the first row of
    at least three names (and no amounts or dates)."""
    wanted = {_key(name) for name in columns.named()} if columns else set()
    lines = statement_lines(data)
    for line, cells in lines:
        if _is_bank_header(cells, wanted):
            return line, cells, lines
    raise _no_bank_header(columns)


def bank_statement_header(data: bytes, *, columns: BankColumns | None = None) -> BankHeader:
    """The header row of the bank statement in ``data`` (``_bank_table``), each named column once."""
    line, cells, _rest = _bank_table(data, columns=columns)
    return BankHeader(line=line, columns=list(dict.fromkeys(cell for cell in cells if cell)))


def bank_columns_suggest(header: list[str]) -> BankColumns:
    """The columns most likely meant, by their names; empty where none is likely."""
    by_key = {_key(name): name for name in reversed(header)}

    def best(field: str) -> str:
        return next((by_key[name] for name in BANK_COLUMN_NAMES[field] if name in by_key), "")

    amount, debit = best("amount"), best("debit")
    return BankColumns(
        date=best("date"),
        amount=amount,
        debit=debit if debit != amount else "",
        reference=best("reference"),
        description=best("description"),
    )


def _bank_amount(cell: str, *, line: int, column: str) -> Decimal:
    """A signed amount: ``-500.00``, ``(500.00)`` and ``500.00 DR`` are negative; blank is 0."""
    text = re.sub(r"(?i)ksh|kes|,", "", cell).strip()
    negative = False
    if text.startswith("(") and text.endswith(")"):
        negative, text = True, text[1:-1].strip()
    if suffix := _DEBIT_SUFFIX.search(text):
        negative, text = suffix.group(1).upper() == "DR", text[: suffix.start()].strip()
    if text.startswith(("-", "+")):
        negative, text = negative != (text[0] == "-"), text[1:].strip()
    if not text:
        return Decimal(0)
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise StatementError(
            _("%(column)s is not an amount: %(value)s") % {"column": column, "value": cell[:40]}, line=line
        ) from None
    return -value if negative else value


def _bank_date(cell: str, *, line: int) -> datetime:
    text = cell.strip()
    for pattern in _BANK_DATE_FORMATS:
        try:
            return datetime.strptime(text, pattern).replace(hour=_BANK_DAY_TIME, tzinfo=NAIROBI)
        except ValueError:
            continue
    for pattern in _DATE_FORMATS:
        try:
            return datetime.strptime(text, pattern).replace(tzinfo=NAIROBI)
        except ValueError:
            continue
    try:  # an Excel date serial, from a cell formatted as a date
        serial = float(text)
    except ValueError:
        serial = 0.0
    if 20_000 < serial < 80_000:
        return (_EXCEL_EPOCH + timedelta(days=int(serial))).replace(hour=_BANK_DAY_TIME)
    raise StatementError(_("The date is not a date: %(value)s") % {"value": text[:40]}, line=line)


def _bank_row(line: int, cell: Callable[[str], str], columns: BankColumns) -> StatementRow:
    money_in = _bank_amount(cell(columns.amount), line=line, column=columns.amount)
    money_out = _bank_amount(cell(columns.debit), line=line, column=columns.debit) if columns.debit else Decimal(0)
    if money_in < 0:  # a signed amount column, or a credit column with a correction
        money_in, money_out = Decimal(0), money_out - money_in
    reference = cell(columns.reference)
    return StatementRow(
        line=line,
        receipt=reference,
        completed_at=_bank_date(cell(columns.date), line=line),
        details=cell(columns.description),
        status="" if money_in == money_in.to_integral_value() else NOT_WHOLE_SHILLINGS,
        paid_in=int(money_in),
        withdrawn=int(abs(money_out).to_integral_value(rounding=ROUND_CEILING)),
        reason_type="",
        other_party="",
        linked_receipt="",
        account_number=reference,
    )


def _cell_named(cells: list[str], positions: dict[str, int], name: str) -> str:
    index = positions.get(_key(name))
    return cells[index] if index is not None and index < len(cells) else ""


def bank_statement_parse(data: bytes, *, columns: BankColumns) -> Statement:
    """The bank statement in ``data`` read through ``columns``, or ``StatementError``. Rows whose date
    cell holds no digit (opening and closing balances, totals, a footer) are not transactions: left out."""
    _line, header, lines = _bank_table(data, columns=columns)
    positions: dict[str, int] = {}
    for index, name in enumerate(header):
        positions.setdefault(_key(name), index)
    rows: list[StatementRow] = []
    for line, cells in lines:
        cell = partial(_cell_named, cells, positions)
        if not re.search(r"\d", cell(columns.date)):
            continue
        if len(rows) >= ROWS_MAX:
            raise StatementError(_("A statement may have at most %(count)d rows.") % {"count": ROWS_MAX}, line=line)
        rows.append(_bank_row(line, cell, columns))
    if not rows:
        raise StatementError(_("The statement has no transactions."))
    return Statement(shortcode="", rows=rows)
