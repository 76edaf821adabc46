"""What each row of a statement would do, read afresh from the ledger every time it is asked: the
preview a treasurer reads and the list the confirmation credits are the same function's answer.

A row is, in this order:
- ``ignored``: not money received (a withdrawal, a failed or reversed transaction, or one that a
  later reversal row of the same statement takes back);
- ``recorded``: its M-Pesa receipt is already in the organization's ledger, whichever way it first
  arrived (callback, query, Pull, a treasurer's entry, an earlier import not undone), or it is a PIN
  prompt confirmed without its receipt (same account, account reference and amount, within a day), or
  earlier in the same file;
- ``matched``: one of this organization's pledge codes is in its account number, else in its
  details (a cancelled pledge's code is not: that payment waits in "Unmatched payments");
- ``keyword``: its account number is one of the organization's keywords (tithes, offerings);
- ``unmatched``: anything else, with this organization's codes one typo away (near misses are
  offered for a person to choose, never credited).

A row's receipt is found with one query for the whole statement, its pledges with another, so a
5,000-row statement is previewed in a handful of queries.

A bank statement's rows (``bank_rows_classify``) are sorted the same way, but a bank row has no
receipt: it is ``recorded`` when a bank payment of the organization on the same day, of the same
amount and with the same reference is in the ledger and not reversed (an earlier import's, or a
treasurer's entry), each such payment answering for one row, so an overlapping statement records
only its new rows; two equal rows in one statement are two payments. Its pledge code, keywords and
near misses are looked for in the reference, then in each word of the reference and the description.
"""

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from collection_accounts.models import MPESA_KINDS, CollectionAccount, CollectionAccountKind
from collection_accounts.selectors import account_keywords_of
from collection_accounts.validators import keyword_normalize
from common import ratelimit
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError
from organizations.roles import Permission
from organizations.selectors import membership_of
from payments.models import Payment
from payments.selectors import ReceiptReport, prompts_awaiting_receipts
from pledges import codes
from pledges.models import Pledge
from statements.models import BANK_KINDS, BankStatementColumns, StatementImport
from statements.parsing import (
    BankColumns,
    StatementError,
    StatementRow,
    bank_columns_suggest,
    bank_statement_header,
)

IGNORED, RECORDED, MATCHED, KEYWORD, UNMATCHED = "ignored", "recorded", "matched", "keyword", "unmatched"
CATEGORIES = (MATCHED, RECORDED, KEYWORD, UNMATCHED, IGNORED)
_WORD = re.compile(r"[A-Za-z0-9]{7}")


@dataclass
class RowOutcome:
    row: StatementRow
    category: str
    pledge_code: str = ""
    campaign_title: str = ""
    near_codes: list[str] = field(default_factory=list)
    beyond_pledge: int = 0  # how much of a matched row would pay its pledge beyond the pledge's amount

    @property
    def amount(self) -> int:
        return self.row.paid_in or self.row.withdrawn

    @property
    def payer(self) -> str:
        """The payer as the statement shows them (Other Party Info is often partly masked)."""
        return self.row.other_party.partition(" - ")[2].strip() or self.row.other_party

    @property
    def received_at(self) -> datetime:
        return self.row.completed_at


@dataclass
class StatementPreview:
    statement_import: StatementImport
    outcomes: list[RowOutcome]

    def counts(self) -> dict[str, dict[str, int]]:
        rows, totals = Counter[str](), Counter[str]()
        for outcome in self.outcomes:
            rows[outcome.category] += 1
            totals[outcome.category] += outcome.amount
        return {category: {"rows": rows[category], "total": totals[category]} for category in CATEGORIES}

    def to_credit(self, *, recorded_too: bool = False) -> list[RowOutcome]:
        """The rows a confirmation records: matched ones are credited, unmatched ones wait; with
        ``recorded_too``, the rows already recorded as well (their payments' evidence, crediting nothing)."""
        categories = (MATCHED, UNMATCHED, RECORDED) if recorded_too else (MATCHED, UNMATCHED)
        return [outcome for outcome in self.outcomes if outcome.category in categories]


def row_from_stored(stored: dict[str, Any]) -> StatementRow:
    return StatementRow(**{**stored, "completed_at": datetime.fromisoformat(stored["completed_at"])})


def row_for_storing(row: StatementRow) -> dict[str, Any]:
    return {**row.__dict__, "completed_at": row.completed_at.isoformat()}


def _code_candidates(row: StatementRow) -> list[str]:
    """Where a pledge code may be: the account number the payer typed, then each 7-character word of the
    details (some exports carry the account number only there: "… Acc. 4KQ7M2X")."""
    found = [codes.normalize(row.account_number)]
    found += [word.upper() for word in _WORD.findall(row.details)]
    return [candidate for candidate in found if codes.is_valid_code(candidate)]


def _ignored(row: StatementRow, reversed_receipts: set[str]) -> bool:
    return (
        not row.is_completed
        or row.is_reversal
        or row.paid_in <= 0
        or row.withdrawn > 0
        or row.receipt in reversed_receipts
    )


def _receipts_recorded(*, account: CollectionAccount, rows: list[StatementRow]) -> set[str]:
    """The rows' receipts this organization's ledger has (another organization's are not looked at), and
    those of PIN prompts confirmed without a receipt that the rows are (``prompts_awaiting_receipts``)."""
    held = set(
        Payment.objects.holding_receipts(
            organization_id=account.organization_id, receipts=[row.receipt for row in rows]
        ).values_list("mpesa_receipt", flat=True)
    )
    reports = [
        ReceiptReport(
            mpesa_receipt=row.receipt,
            amount=row.paid_in,
            account_reference=row.account_number,
            paid_at=row.completed_at,
        )
        for row in rows
        if row.receipt not in held and row.paid_in > 0
    ]
    return {str(receipt) for receipt in held} | set(prompts_awaiting_receipts(account_id=account.pk, reports=reports))


def statement_rows_classify(*, account: CollectionAccount, rows: list[StatementRow]) -> list[RowOutcome]:
    reversed_receipts = {row.linked_receipt for row in rows if row.is_reversal and row.linked_receipt}
    recorded = _receipts_recorded(account=account, rows=rows)
    organization_id = account.organization_id
    pledges = Pledge.objects.filter(campaign__organization_id=organization_id)
    wanted = {candidate for row in rows for candidate in _code_candidates(row)}
    live, owed = _live_pledges(pledges, wanted)
    keywords = set(account_keywords_of(organization=organization_id))
    seen: set[str] = set()
    outcomes = []
    for row in rows:
        if _ignored(row, reversed_receipts):
            outcomes.append(RowOutcome(row, IGNORED))
            continue
        if row.receipt in recorded or row.receipt in seen:
            outcomes.append(RowOutcome(row, RECORDED))
            continue
        seen.add(row.receipt)
        code = next((candidate for candidate in _code_candidates(row) if candidate in live), "")
        if code:
            outcomes.append(RowOutcome(row, MATCHED, pledge_code=code, campaign_title=live[code]))
        elif keyword_normalize(row.account_number) in keywords:
            outcomes.append(RowOutcome(row, KEYWORD))
        else:
            outcomes.append(RowOutcome(row, UNMATCHED))
    _near_misses_find(pledges, [outcome for outcome in outcomes if outcome.category == UNMATCHED])
    _beyond_pledges_mark(outcomes, owed)
    return outcomes


def _live_pledges(pledges: Any, codes_wanted: set[str]) -> tuple[dict[str, str], dict[str, int]]:
    """The live pledges among ``codes_wanted``: each one's campaign title, and what is still owed on it."""
    found = pledges.filter(code__in=codes_wanted, cancelled_at__isnull=True).values_list(
        "code", "campaign__title", "amount", "paid_amount"
    )
    return {code: title for code, title, _amount, _paid in found}, {
        code: amount - paid for code, _title, amount, paid in found
    }


def _beyond_pledges_mark(outcomes: list[RowOutcome], owed: dict[str, int]) -> None:
    """Mark each matched row with what it would pay beyond its pledge's amount, the file's rows in order (a
    pledge paid in full already, or filled by an earlier row): the treasurer is warned, the money still counts."""
    left = dict(owed)
    for outcome in outcomes:
        if outcome.category == MATCHED:
            outcome.beyond_pledge = min(outcome.amount, max(outcome.amount - max(left[outcome.pledge_code], 0), 0))
            left[outcome.pledge_code] -= outcome.amount


def _near_misses_find(
    pledges: Any,
    unmatched: list[RowOutcome],
    typed: Callable[[StatementRow], list[str]] = lambda row: [row.account_number],
) -> None:
    """This organization's live codes one typo away from what each unmatched row's payer typed (an
    M-Pesa row's account number)."""
    near = {id(outcome): set().union(*map(codes.near_codes, typed(outcome.row))) for outcome in unmatched}
    wanted = set().union(*near.values()) if near else set()
    existing = set(pledges.filter(code__in=wanted, cancelled_at__isnull=True).values_list("code", flat=True))
    for outcome in unmatched:
        outcome.near_codes = sorted(near[id(outcome)] & existing)


# Bank statements ------------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return [word.upper() for word in re.split(r"[^A-Za-z0-9]+", text) if word]


def _bank_texts(row: StatementRow) -> list[str]:
    """What a bank row's payer may have typed: its whole reference (``4KQ-7M2X``), then each word of its
    reference and description (``MPESA C2B 4KQ7M2X JOHN DOE``)."""
    return list(dict.fromkeys([codes.normalize(row.account_number), *_words(row.account_number), *_words(row.details)]))


def _bank_code_like(row: StatementRow) -> list[str]:
    """The words of a bank row that may be a mistyped code: about a code's length, with at most one
    character a code never has (one typo can bring in only one). Not "letters and digits": about one
    code in eight has no digit (23 of its 31 characters are letters), and its typo would never be
    offered. Words such as DEPOSIT (an O and an I) fall out here, before any code is looked up."""
    return [
        word
        for word in _bank_texts(row)
        if abs(len(word) - codes.CODE_LENGTH) <= 1 and sum(char not in codes.CODE_ALPHABET for char in word) <= 1
    ]


def bank_typed_reference(outcome: RowOutcome) -> str:
    """What a bank row's payment keeps as its account reference: its pledge code; else the word one typo
    from the codes offered (so "Unmatched payments" offers them too); else its reference or description."""
    if outcome.pledge_code:
        return outcome.pledge_code
    near = set(outcome.near_codes)
    typo = next((word for word in _bank_code_like(outcome.row) if codes.near_codes(word) & near), "")
    return (typo or outcome.row.account_number or outcome.row.details)[:64]


def _bank_key(*, day: date, amount: int, reference: str) -> tuple[date, int, str]:
    return day, amount, re.sub(r"[^A-Z0-9]", "", reference.upper())


def _bank_payments_recorded(*, organization_id: int, rows: list[StatementRow]) -> Counter[tuple[date, int, str]]:
    """The organization's bank payments in the ledger, not reversed, on the statement's days: how many of
    each day, amount and reference. One query."""
    if not rows:
        return Counter()
    days = [timezone.localdate(row.completed_at) for row in rows]
    start = timezone.make_aware(datetime.combine(min(days), time.min))
    end = timezone.make_aware(datetime.combine(max(days), time.max))
    found = Payment.objects.filter(
        Q(collection_account__organization_id=organization_id) | Q(campaign__organization_id=organization_id),
        Q(received_at__range=(start, end)) | Q(received_at__isnull=True, settled_at__range=(start, end)),
        provider=Payment.Provider.BANK,
        status=Payment.Status.SUCCEEDED,
        reversal__isnull=True,
    ).values_list("amount", "received_at", "settled_at", "provider_reference", "statement_import_link__bank_reference")
    return Counter(
        _bank_key(day=timezone.localdate(received_at or settled_at), amount=amount, reference=typed or imported or "")
        for amount, received_at, settled_at, typed, imported in found
    )


def bank_rows_classify(*, organization_id: int, rows: list[StatementRow]) -> list[RowOutcome]:
    recorded = _bank_payments_recorded(organization_id=organization_id, rows=rows)
    pledges = Pledge.objects.filter(campaign__organization_id=organization_id)
    wanted = {text for row in rows for text in _bank_texts(row) if codes.is_valid_code(text)}
    live, owed = _live_pledges(pledges, wanted)
    keywords = set(account_keywords_of(organization=organization_id))
    outcomes = []
    for row in rows:
        if _ignored(row, set()):
            outcomes.append(RowOutcome(row, IGNORED))
            continue
        key = _bank_key(day=timezone.localdate(row.completed_at), amount=row.paid_in, reference=row.account_number)
        if recorded[key] > 0:
            recorded[key] -= 1
            outcomes.append(RowOutcome(row, RECORDED))
            continue
        texts = _bank_texts(row)
        code = next((text for text in texts if text in live), "")
        if code:
            outcomes.append(RowOutcome(row, MATCHED, pledge_code=code, campaign_title=live[code]))
        elif keywords & {keyword_normalize(text) for text in texts}:
            outcomes.append(RowOutcome(row, KEYWORD))
        else:
            outcomes.append(RowOutcome(row, UNMATCHED))
    _near_misses_find(pledges, [outcome for outcome in outcomes if outcome.category == UNMATCHED], _bank_code_like)
    _beyond_pledges_mark(outcomes, owed)
    return outcomes


@dataclass(frozen=True)
class BankColumnsChoice:
    """A bank statement's header and the columns offered: the account's remembered ones when this file
    has them, else those its header names suggest."""

    header: list[str]
    columns: BankColumns
    remembered: bool


def bank_columns_remembered(*, account: CollectionAccount) -> BankColumns | None:
    found = BankStatementColumns.objects.filter(collection_account=account).first()
    if found is None:
        return None
    return BankColumns(
        date=found.date,
        amount=found.amount,
        debit=found.debit,
        reference=found.reference,
        description=found.description,
    )


def bank_statement_columns_offer(
    *, user: User, organization_id: int, account_id: int, data: bytes | None
) -> BankColumnsChoice:
    """The columns of the bank statement in ``data`` for the treasurer to map, with a mapping to start from."""
    statement_file_reading_allowed(user=user, organization_id=organization_id)
    account = statement_account_get(organization_id=organization_id, account_id=account_id)
    if account.kind not in BANK_KINDS:
        raise FieldValidationError(
            _("An M-Pesa statement's columns are known: upload it as it is."),
            field_errors={"account_id": _("Choose a bank account.")},
        )
    if data is None:
        raise statement_file_missing_error()
    remembered = bank_columns_remembered(account=account)
    try:
        if remembered is not None:
            try:
                header = bank_statement_header(data, columns=remembered)
                return BankColumnsChoice(header=header.columns, columns=remembered, remembered=True)
            except StatementError:
                pass  # this file's columns differ from last time's: suggest afresh
        header = bank_statement_header(data)
    except StatementError as error:
        raise statement_file_error(str(error)) from None
    return BankColumnsChoice(header=header.columns, columns=bank_columns_suggest(header.columns), remembered=False)


def statement_file_error(message: str, code: str = "statement_invalid") -> FieldValidationError:
    return FieldValidationError(message, code=code, field_errors={"file": message})


def statement_file_missing_error() -> FieldValidationError:
    return statement_file_error(_("Choose the statement file to upload."))


def statement_account_get(*, organization_id: int, account_id: int) -> CollectionAccount:
    """One of the organization's accounts whose statements can be imported: an M-Pesa paybill or till,
    a bank account or a bank's collection paybill."""
    account = (
        CollectionAccount.objects.filter(organization_id=organization_id, pk=account_id).first()
        if 1 <= account_id < 2**63
        else None
    )
    if account is None:
        raise FieldValidationError(
            _("Choose the account the statement is of."), field_errors={"account_id": _("Account not found.")}
        )
    if account.kind not in (*MPESA_KINDS, *BANK_KINDS, CollectionAccountKind.AIRTEL_MONEY):
        message = _(
            "Only statements of an M-Pesa paybill or till, an Airtel Money account or a bank account can be imported."
        )
        raise FieldValidationError(message, field_errors={"account_id": message})
    return account


def statement_import_managed_get(*, user: User, organization_id: int, import_id: int) -> StatementImport:
    """An import of the organization for one of its owners or treasurers (404 for others' imports and
    outsiders, 403 for other members)."""
    statement_imports_allowed(user=user, organization_id=organization_id)
    found = (
        StatementImport.objects.select_related("collection_account")
        .filter(organization_id=organization_id, pk=import_id)
        .first()
        if 1 <= import_id < 2**63
        else None
    )
    if found is None:
        raise NotFoundError(_("Import not found."), code="not_found")
    return found


def statement_imports_allowed(*, user: User, organization_id: int) -> None:
    if not membership_of(user=user, organization_id=organization_id).allows(Permission.MANAGE_PLEDGES):
        raise PermissionDeniedError(
            _("Only the organization's owners and treasurers can import statements."), code="not_owner_or_treasurer"
        )


def statement_file_reading_allowed(*, user: User, organization_id: int) -> None:
    """``statement_imports_allowed``, and one more file read counted against the user's and the
    organization's limits (429 past either). Counted only once allowed: a stranger cannot use up a
    church's imports."""
    statement_imports_allowed(user=user, organization_id=organization_id)
    ratelimit.enforce_all(
        limits=[
            ratelimit.Limit("statement-file-user", str(user.pk), settings.RATE_LIMIT_STATEMENT_FILE_USER),
            ratelimit.Limit(
                "statement-file-organization", str(organization_id), settings.RATE_LIMIT_STATEMENT_FILE_ORGANIZATION
            ),
        ],
        message=_("Too many statement files in a short time. Please wait a while and try again."),
    )


def statement_preview(*, statement_import: StatementImport) -> StatementPreview:
    rows = [row_from_stored(stored) for stored in statement_import.rows]
    account = statement_import.collection_account
    if account.kind in BANK_KINDS:
        outcomes = bank_rows_classify(organization_id=statement_import.organization_id, rows=rows)
    else:
        outcomes = statement_rows_classify(account=account, rows=rows)
    return StatementPreview(statement_import, outcomes)


def statement_imports_of(*, user: User, organization_id: int) -> list[StatementImport]:
    """The organization's last 50 imports, confirmed or undone (a preview is its uploader's, until confirmed)."""
    statement_imports_allowed(user=user, organization_id=organization_id)
    return list(
        StatementImport.objects.filter(organization_id=organization_id)
        .exclude(status=StatementImport.Status.PREVIEWED)
        .select_related("collection_account")[:50]
    )
