"""Statement imports under /api/orgs/{id}/statement-imports: upload (a preview), confirm, undo.

Owners and treasurers only (404 for outsiders, 403 for other members). The upload is multipart: the
file and the collection account it is a statement of; for a bank account also the columns chosen,
which ``bank-columns`` offers from the file's header."""

from typing import Any

from django.http import HttpRequest
from ninja import File, Form, Router, Status
from ninja.files import UploadedFile
from ninja.security import django_auth

from accounts.auth import signed_in_user
from campaigns.uploads import upload_was_too_large
from common.schemas import ErrorOut
from statements import selectors, services
from statements.models import StatementImport
from statements.parsing import STATEMENT_MAX_BYTES, BankColumns
from statements.schemas import (
    BankColumnsChoiceOut,
    StatementImportConfirmIn,
    StatementImportOut,
    StatementImportUndoIn,
)

router = Router(tags=["statement imports"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
PATH = "/orgs/{organization_id}/statement-imports"


def _out(statement_import: StatementImport, *, with_rows: bool = True) -> dict[str, Any]:
    account = statement_import.collection_account
    answer: dict[str, Any] = {
        "id": statement_import.pk,
        "status": statement_import.status,
        "file_name": statement_import.file_name,
        "account_id": account.pk,
        "account_label": account.label or account.number,
        "account_kind": account.kind,
        "created_at": statement_import.created_at,
        "confirmed_at": statement_import.confirmed_at,
        "undone_at": statement_import.undone_at,
        "undo_reason": statement_import.undo_reason,
        "receipts_sent": statement_import.receipts_sent,
        "figures": statement_import.summary,
        "rows": [],
    }
    if statement_import.status == StatementImport.Status.PREVIEWED:
        preview = selectors.statement_preview(statement_import=statement_import)
        answer["figures"] = preview.counts()
        if with_rows:
            answer["rows"] = [
                {
                    "line": outcome.row.line,
                    "receipt": outcome.row.receipt,
                    "completed_at": outcome.received_at,
                    "amount": outcome.amount,
                    "account_number": outcome.row.account_number,
                    "payer": outcome.payer,
                    "category": outcome.category,
                    "pledge_code": outcome.pledge_code,
                    "campaign_title": outcome.campaign_title,
                    "near_codes": outcome.near_codes,
                    "beyond_pledge": outcome.beyond_pledge,
                    "details": outcome.row.details,
                }
                for outcome in preview.outcomes
            ]
    return answer


@router.get(PATH, response={200: list[StatementImportOut], **ERRORS}, auth=django_auth)
def statement_import_list(request: HttpRequest, organization_id: int) -> list[dict[str, Any]]:
    """The organization's last 50 imports, confirmed or undone, newest first, with their figures."""
    imports = selectors.statement_imports_of(user=signed_in_user(request), organization_id=organization_id)
    return [_out(statement_import, with_rows=False) for statement_import in imports]


@router.post(PATH + "/bank-columns", response={200: BankColumnsChoiceOut, 429: ErrorOut, **ERRORS}, auth=django_auth)
def bank_statement_columns(
    request: HttpRequest,
    organization_id: int,
    account_id: Form[int],
    file: File[UploadedFile | None] = None,
) -> dict[str, Any]:
    """A bank statement's column names, and which holds what: the account's remembered choice when the
    file has those columns, else a guess from their names. Nothing is kept."""
    if upload_was_too_large(request) if file is None else (file.size or 0) > STATEMENT_MAX_BYTES:
        raise services.statement_too_large_error()
    choice = selectors.bank_statement_columns_offer(
        user=signed_in_user(request),
        organization_id=organization_id,
        account_id=account_id,
        data=file.read(STATEMENT_MAX_BYTES + 1) if file else None,
    )
    return {"header": choice.header, "columns": choice.columns.__dict__, "remembered": choice.remembered}


@router.post(PATH, response={201: StatementImportOut, 429: ErrorOut, **ERRORS}, auth=django_auth)
def statement_import_upload(
    request: HttpRequest,
    organization_id: int,
    account_id: Form[int],
    file: File[UploadedFile | None] = None,
    date_column: Form[str] = "",
    amount_column: Form[str] = "",
    debit_column: Form[str] = "",
    reference_column: Form[str] = "",
    description_column: Form[str] = "",
) -> Status[dict[str, Any]]:
    """Upload a statement (CSV or Excel, at most 20 MB) of one of the organization's accounts: an M-Pesa
    Org Portal statement of a paybill or till, or a bank statement with its columns (``*_column``: header
    names; left out, the account's remembered ones). Answered with the preview of every row; nothing is
    credited yet."""
    if file is None and upload_was_too_large(request):
        raise services.statement_too_large_error()
    chosen = BankColumns(
        date=date_column.strip(),
        amount=amount_column.strip(),
        debit=debit_column.strip(),
        reference=reference_column.strip(),
        description=description_column.strip(),
    )
    statement_import = services.statement_import_upload(
        user=signed_in_user(request),
        organization_id=organization_id,
        account_id=account_id,
        file=file,
        bank_columns=chosen if any(chosen.named()) else None,
    )
    return Status(201, _out(statement_import))


@router.get(PATH + "/{import_id}", response={200: StatementImportOut, **ERRORS}, auth=django_auth)
def statement_import_detail(request: HttpRequest, organization_id: int, import_id: int) -> dict[str, Any]:
    """An import: a preview read afresh (what confirming would do now), or what it did."""
    return _out(
        selectors.statement_import_managed_get(
            user=signed_in_user(request), organization_id=organization_id, import_id=import_id
        )
    )


@router.post(PATH + "/{import_id}/confirm", response={200: StatementImportOut, **ERRORS}, auth=django_auth)
def statement_import_confirm(
    request: HttpRequest, organization_id: int, import_id: int, payload: StatementImportConfirmIn
) -> dict[str, Any]:
    """Credit the matched rows and keep the unmatched ones for "Unmatched payments", in one step."""
    return _out(
        services.statement_import_confirm(
            user=signed_in_user(request), organization_id=organization_id, import_id=import_id, **payload.dict()
        )
    )


@router.post(PATH + "/{import_id}/undo", response={200: StatementImportOut, **ERRORS}, auth=django_auth)
def statement_import_undo(
    request: HttpRequest, organization_id: int, import_id: int, payload: StatementImportUndoIn
) -> dict[str, Any]:
    """Reverse every payment the import recorded, with a reason (audited)."""
    return _out(
        services.statement_import_undo(
            user=signed_in_user(request), organization_id=organization_id, import_id=import_id, reason=payload.reason
        )
    )
