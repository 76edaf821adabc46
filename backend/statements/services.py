"""Importing a statement: upload (parse and keep the rows; nothing in the ledger changes), confirm
(record and credit, once by M-Pesa receipt, in one transaction) and undo (reverse exactly what the
import recorded). Owners and treasurers only; confirmation and undo are audited."""

import hashlib
from datetime import timedelta

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from collection_accounts.models import MPESA_KINDS, CollectionAccount
from common.errors import FieldValidationError, NotFoundError, ServiceError
from payments.services import (
    BULK_BATCH_SIZE,
    StatementPayment,
    payments_record_from_statement,
    payments_reverse_imported,
)
from statements.models import ImportedPayment, StatementImport
from statements.parsing import STATEMENT_MAX_BYTES, StatementError, statement_parse
from statements.selectors import (
    row_for_storing,
    statement_imports_allowed,
    statement_preview,
)

# Money found on a statement more than this long after it was paid gets no receipt, unless asked for:
# a thank-you weeks later confuses more than it tells.
RECEIPTS_WITHIN = timedelta(days=3)
UNDO_REASON_MAX_LENGTH = 500


def _file_error(message: str, code: str = "statement_invalid") -> FieldValidationError:
    return FieldValidationError(message, code=code, field_errors={"file": message})


def statement_too_large_error() -> FieldValidationError:
    return _file_error(_("A statement may be at most 20 MB."), code="file_too_large")


def _account_get(*, organization_id: int, account_id: int) -> CollectionAccount:
    account = (
        CollectionAccount.objects.filter(organization_id=organization_id, pk=account_id).first()
        if 1 <= account_id < 2**63
        else None
    )
    if account is None:
        raise FieldValidationError(
            _("Choose the account the statement is of."), field_errors={"account_id": _("Account not found.")}
        )
    if account.kind not in MPESA_KINDS:
        raise FieldValidationError(
            _("Only statements of an M-Pesa paybill or till can be imported."),
            field_errors={"account_id": _("Only statements of an M-Pesa paybill or till can be imported.")},
        )
    return account


def statement_import_upload(
    *, user: User, organization_id: int, account_id: int, file: UploadedFile | None
) -> StatementImport:
    """Read an M-Pesa statement of one of the organization's paybills or tills and keep its rows for
    the preview. A file that cannot be read, is empty, too large, holds formulas or is another
    shortcode's statement is refused with a message naming the problem (and its line), and nothing
    is kept."""
    statement_imports_allowed(user=user, organization_id=organization_id)
    account = _account_get(organization_id=organization_id, account_id=account_id)
    if file is None:
        raise _file_error(_("Choose the statement file to upload."))
    if (file.size or 0) > STATEMENT_MAX_BYTES:
        raise statement_too_large_error()
    data = file.read(STATEMENT_MAX_BYTES + 1)
    try:
        statement = statement_parse(data)
    except StatementError as error:
        raise _file_error(str(error)) from None
    numbers = {account.paybill_number, account.till_number, account.store_number} - {""}
    if statement.shortcode and statement.shortcode not in numbers:
        raise _file_error(
            _("This is the statement of shortcode %(statement)s, not of %(account)s.")
            % {"statement": statement.shortcode, "account": account.number}
        )
    return StatementImport.objects.create(
        organization_id=organization_id,
        collection_account=account,
        file_name=(file.name or "")[:200],
        file_sha256=hashlib.sha256(data).hexdigest(),
        statement_shortcode=statement.shortcode,
        rows=[row_for_storing(row) for row in statement.rows],
        uploaded_by=user,
    )


def _import_locked(*, organization_id: int, import_id: int) -> StatementImport:
    found = (
        StatementImport.objects.select_for_update()
        .select_related("collection_account")
        .filter(organization_id=organization_id, pk=import_id)
        .first()
        if 1 <= import_id < 2**63
        else None
    )
    if found is None:
        raise NotFoundError(_("Import not found."), code="not_found")
    return found


def statement_import_confirm(
    *, user: User, organization_id: int, import_id: int, send_receipts: bool = False
) -> StatementImport:
    """Record the previewed statement's money in one transaction: rows matching a pledge code are
    credited to it, unmatched ones wait in "Unmatched payments"; rows already in the ledger, keyword
    money and ignored rows change nothing. Each receipt is credited at most once, here and against
    every callback, Pull and entry (the ledger's unique receipt). Payers get receipts for money
    received within 3 days, and for older money only with ``send_receipts``."""
    statement_imports_allowed(user=user, organization_id=organization_id)
    with transaction.atomic():
        statement_import = _import_locked(organization_id=organization_id, import_id=import_id)
        if statement_import.status != StatementImport.Status.PREVIEWED:
            raise ServiceError(_("This statement has already been imported."), code="already_confirmed")
        preview = statement_preview(statement_import=statement_import)
        now = timezone.now()
        payments = payments_record_from_statement(
            account=statement_import.collection_account,
            recorded_by=user,
            found=[
                StatementPayment(
                    mpesa_receipt=outcome.row.receipt,
                    amount=outcome.amount,
                    account_reference=outcome.pledge_code or outcome.row.account_number,
                    received_at=outcome.received_at,
                    payer_name=outcome.payer,
                    notify_payer=send_receipts or outcome.received_at >= now - RECEIPTS_WITHIN,
                )
                for outcome in preview.to_credit()
            ],
        )
        ImportedPayment.objects.bulk_create(
            [ImportedPayment(statement_import=statement_import, payment=payment) for payment in payments],
            batch_size=BULK_BATCH_SIZE,
        )
        statement_import.status = StatementImport.Status.CONFIRMED
        statement_import.confirmed_by, statement_import.confirmed_at = user, now
        statement_import.receipts_sent = send_receipts
        statement_import.summary = preview.counts()
        # The payers' names and numbers are in the ledger now, as much as it keeps: not kept twice.
        statement_import.rows = []
        statement_import.save()
        audit_record(
            actor=user,
            action=AuditAction.STATEMENT_IMPORTED,
            target=statement_import,
            after={
                "account": statement_import.collection_account_id,
                "file_sha256": statement_import.file_sha256,
                "payments": len(payments),
                "summary": statement_import.summary,
                "receipts_sent": send_receipts,
            },
        )
    return statement_import


def statement_import_undo(*, user: User, organization_id: int, import_id: int, reason: str) -> StatementImport:
    """Take back a whole confirmed import: each payment it recorded gets a reversing entry (so its
    pledge, or the pledge a treasurer assigned it to since, counts it no more); nothing else is
    touched. With a reason; audited."""
    statement_imports_allowed(user=user, organization_id=organization_id)
    reason = reason.strip()
    if not reason:
        raise FieldValidationError(
            _("Please give the reason for undoing the import."),
            field_errors={"reason": _("Please give the reason for undoing the import.")},
        )
    if len(reason) > UNDO_REASON_MAX_LENGTH:
        raise FieldValidationError(
            _("Please keep the reason under 500 characters."),
            field_errors={"reason": _("Please keep the reason under 500 characters.")},
        )
    with transaction.atomic():
        statement_import = _import_locked(organization_id=organization_id, import_id=import_id)
        if statement_import.status != StatementImport.Status.CONFIRMED:
            raise ServiceError(_("Only an imported statement can be undone."), code="not_confirmed")
        payments = [link.payment for link in statement_import.imported.select_related("payment")]
        reversed_count = payments_reverse_imported(
            payments=payments, user=user, reason=_("Statement import undone: %(reason)s") % {"reason": reason}
        )
        statement_import.status = StatementImport.Status.UNDONE
        statement_import.undone_by, statement_import.undone_at = user, timezone.now()
        statement_import.undo_reason = reason
        statement_import.save(update_fields=["status", "undone_by", "undone_at", "undo_reason"])
        audit_record(
            actor=user,
            action=AuditAction.STATEMENT_IMPORT_UNDONE,
            target=statement_import,
            before={"status": StatementImport.Status.CONFIRMED},
            after={"status": statement_import.status, "reversed": reversed_count, "reason": reason},
        )
    return statement_import
