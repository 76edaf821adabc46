"""What each row of a statement would do, read afresh from the ledger every time it is asked: the
preview a treasurer reads and the list the confirmation credits are the same function's answer.

A row is, in this order:
- ``ignored``: not money received (a withdrawal, a failed or reversed transaction, or one that a
  later reversal row of the same statement takes back);
- ``recorded``: its M-Pesa receipt is already in the ledger, whichever way it first arrived
  (callback, Pull, a treasurer's entry, an earlier import), or earlier in the same file;
- ``matched``: one of this organization's pledge codes is in its account number, else in its
  details (a cancelled pledge's code is not: that payment waits in "Unmatched payments");
- ``keyword``: its account number is one of the organization's keywords (tithes, offerings);
- ``unmatched``: anything else, with this organization's codes one typo away (near misses are
  offered for a person to choose, never credited).

A row's receipt is found with one query for the whole statement, its pledges with another, so a
5,000-row statement is previewed in a handful of queries.
"""

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from accounts.models import User
from collection_accounts.selectors import account_keywords_of
from collection_accounts.validators import keyword_normalize
from common.errors import NotFoundError, PermissionDeniedError
from organizations.roles import Permission
from organizations.selectors import membership_of
from payments.models import Payment
from pledges import codes
from pledges.models import Pledge
from statements.models import StatementImport
from statements.parsing import StatementRow

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

    def to_credit(self) -> list[RowOutcome]:
        """The rows a confirmation records: matched ones are credited, unmatched ones wait."""
        return [outcome for outcome in self.outcomes if outcome.category in (MATCHED, UNMATCHED)]


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


def statement_rows_classify(*, organization_id: int, rows: list[StatementRow]) -> list[RowOutcome]:
    reversed_receipts = {row.linked_receipt for row in rows if row.is_reversal and row.linked_receipt}
    recorded = set(
        Payment.objects.filter(mpesa_receipt__in=[row.receipt for row in rows]).values_list("mpesa_receipt", flat=True)
    )
    pledges = Pledge.objects.filter(campaign__organization_id=organization_id)
    wanted = {candidate for row in rows for candidate in _code_candidates(row)}
    live = dict(pledges.filter(code__in=wanted, cancelled_at__isnull=True).values_list("code", "campaign__title"))
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
    return outcomes


def _near_misses_find(pledges: Any, unmatched: list[RowOutcome]) -> None:
    """This organization's live codes one typo away from each unmatched row's account number."""
    near = {id(outcome): codes.near_codes(outcome.row.account_number) for outcome in unmatched}
    wanted = set().union(*near.values()) if near else set()
    existing = set(pledges.filter(code__in=wanted, cancelled_at__isnull=True).values_list("code", flat=True))
    for outcome in unmatched:
        outcome.near_codes = sorted(near[id(outcome)] & existing)


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


def statement_preview(*, statement_import: StatementImport) -> StatementPreview:
    rows = [row_from_stored(stored) for stored in statement_import.rows]
    return StatementPreview(
        statement_import, statement_rows_classify(organization_id=statement_import.organization_id, rows=rows)
    )


def statement_imports_of(*, user: User, organization_id: int) -> list[StatementImport]:
    """The organization's last 50 imports, confirmed or undone (a preview is its uploader's, until confirmed)."""
    statement_imports_allowed(user=user, organization_id=organization_id)
    return list(
        StatementImport.objects.filter(organization_id=organization_id)
        .exclude(status=StatementImport.Status.PREVIEWED)
        .select_related("collection_account")[:50]
    )
