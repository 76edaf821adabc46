"""Importing a statement: upload (parse and keep the rows; nothing in the ledger changes), confirm
(record and credit, once by M-Pesa receipt, or for a bank statement once by day, amount and
reference, in one transaction) and undo (reverse exactly what the import recorded). Owners and
treasurers only; confirmation and undo are audited."""

import hashlib
from datetime import datetime, timedelta

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from common.errors import FieldValidationError, NotFoundError, ServiceError
from payments.airtel import AirtelStatementPayment, payments_record_from_airtel_statement
from payments.services import (
    BULK_BATCH_SIZE,
    BankStatementPayment,
    StatementPayment,
    payments_record_from_bank_statement,
    payments_record_from_statement,
    payments_reverse_imported,
)
from statements.airtel import airtel_statement_parse
from statements.models import BANK_KINDS, BankStatementColumns, ImportedPayment, StatementImport
from statements.parsing import (
    STATEMENT_MAX_BYTES,
    BankColumns,
    StatementError,
    bank_statement_parse,
    statement_parse,
)
from statements.selectors import (
    StatementPreview,
    bank_columns_remembered,
    bank_typed_reference,
    row_for_storing,
    statement_account_get,
    statement_file_error,
    statement_file_missing_error,
    statement_file_reading_allowed,
    statement_imports_allowed,
    statement_preview,
)

# Money found on a statement more than this long after it was paid gets no receipt, unless asked for:
# a thank-you weeks later confuses more than it tells.
RECEIPTS_WITHIN = timedelta(days=3)
# A preview nobody confirmed within this is deleted with the rows it keeps (payers' names and numbers):
# a treasurer who comes back later uploads the statement again, and reads it afresh.
PREVIEW_KEPT_FOR = timedelta(hours=24)
UNDO_REASON_MAX_LENGTH = 500


def statement_too_large_error() -> FieldValidationError:
    return statement_file_error(_("A statement may be at most 20 MB."), code="file_too_large")


def _bank_columns_chosen(*, account: CollectionAccount, chosen: BankColumns | None) -> BankColumns:
    """The columns a bank statement is read through: those chosen now, else the account's last ones."""
    columns = chosen or bank_columns_remembered(account=account)
    if columns is None or not (columns.date and columns.amount):
        message = _("Choose the columns holding the date and the amount.")
        raise FieldValidationError(message, code="columns_required", field_errors={"columns": message})
    if not (columns.reference or columns.description):
        message = _("Choose the column holding the reference or the description: pledge codes are found there.")
        raise FieldValidationError(message, code="columns_required", field_errors={"columns": message})
    return columns


def statement_import_upload(
    *,
    user: User,
    organization_id: int,
    account_id: int,
    file: UploadedFile | None,
    bank_columns: BankColumns | None = None,
) -> StatementImport:
    """Read a statement of one of the organization's accounts and keep its rows for the preview: an
    M-Pesa statement of a paybill or till, or a bank statement read through ``bank_columns`` (else the
    account's remembered ones), which are remembered for its next statement. A file that cannot be read,
    is empty, too large, holds formulas, lacks the chosen columns or is another shortcode's statement is
    refused with a message naming the problem (and its line), and nothing is kept. Each upload counts
    against the user's and the organization's limits on files read."""
    statement_file_reading_allowed(user=user, organization_id=organization_id)
    account = statement_account_get(organization_id=organization_id, account_id=account_id)
    columns = _bank_columns_chosen(account=account, chosen=bank_columns) if account.kind in BANK_KINDS else None
    if file is None:
        raise statement_file_missing_error()
    if (file.size or 0) > STATEMENT_MAX_BYTES:
        raise statement_too_large_error()
    data = file.read(STATEMENT_MAX_BYTES + 1)
    try:
        if account.kind == CollectionAccountKind.AIRTEL_MONEY:
            statement = airtel_statement_parse(data)
        else:
            statement = statement_parse(data) if columns is None else bank_statement_parse(data, columns=columns)
    except StatementError as error:
        raise statement_file_error(str(error)) from None
    numbers = {account.paybill_number, account.till_number, account.store_number} - {""}
    if statement.shortcode and statement.shortcode not in numbers:
        raise statement_file_error(
            _("This is the statement of shortcode %(statement)s, not of %(account)s.")
            % {"statement": statement.shortcode, "account": account.number}
        )
    with transaction.atomic():
        if columns is not None:
            BankStatementColumns.objects.update_or_create(collection_account=account, defaults=columns.__dict__)
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


def _bank_payments_record(
    statement_import: StatementImport, preview: StatementPreview, *, user: User, send_receipts: bool
) -> list[ImportedPayment]:
    """Record a bank statement's matched and unmatched rows; each link keeps its row's reference."""
    recent = timezone.now() - RECEIPTS_WITHIN
    outcomes = preview.to_credit()
    payments = payments_record_from_bank_statement(
        account=statement_import.collection_account,
        recorded_by=user,
        found=[
            BankStatementPayment(
                amount=outcome.amount,
                account_reference=bank_typed_reference(outcome),
                bank_reference=outcome.row.receipt,
                description=outcome.row.details,
                received_at=outcome.received_at,
                notify_payer=send_receipts or outcome.received_at >= recent,
            )
            for outcome in outcomes
        ],
    )
    return [
        ImportedPayment(statement_import=statement_import, payment=payment, bank_reference=outcome.row.receipt[:100])
        for outcome, payment in zip(outcomes, payments, strict=True)
    ]


def _mpesa_payments_record(
    statement_import: StatementImport, preview: StatementPreview, *, user: User, send_receipts: bool
) -> list[ImportedPayment]:
    """Record an M-Pesa statement's matched and unmatched rows whose receipts are not in the ledger yet; its
    rows already recorded are kept as their payments' evidence."""
    recent = timezone.now() - RECEIPTS_WITHIN
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
                notify_payer=send_receipts or outcome.received_at >= recent,
            )
            for outcome in preview.to_credit(recorded_too=True)
        ],
    )
    return [ImportedPayment(statement_import=statement_import, payment=payment) for payment in payments]


def _airtel_payments_record(
    statement_import: StatementImport, preview: StatementPreview, *, user: User, send_receipts: bool
) -> list[ImportedPayment]:
    """Record an Airtel Money statement's rows (``payments.airtel``): the import links only the payments it
    created; pushes it completed and rows already recorded are their payments' evidence."""
    recent = timezone.now() - RECEIPTS_WITHIN
    outcome = payments_record_from_airtel_statement(
        account=statement_import.collection_account,
        recorded_by=user,
        rows=[
            AirtelStatementPayment(
                airtel_money_id=row.row.receipt,
                amount=row.amount,
                paid_at=row.received_at,
                msisdn=row.row.other_party.partition(" - ")[0].strip(),
                reference=row.pledge_code or row.row.account_number,
                name=row.payer,
                notify_payer=send_receipts or row.received_at >= recent,
            )
            for row in preview.to_credit(recorded_too=True)
        ],
    )
    return [ImportedPayment(statement_import=statement_import, payment=payment) for payment in outcome.created]


def statement_import_confirm(
    *, user: User, organization_id: int, import_id: int, send_receipts: bool = False
) -> StatementImport:
    """Record the previewed statement's money in one transaction: rows matching a pledge code are
    credited to it, unmatched ones wait in "Unmatched payments"; rows already in the ledger, keyword
    money and ignored rows change nothing. Each receipt is credited at most once, here and against
    every callback, Pull and entry (the ledger's unique receipt); a bank row at most once against every
    earlier import and entry (``selectors.bank_rows_classify``). Payers get receipts for money
    received within 3 days, and for older money only with ``send_receipts``."""
    statement_imports_allowed(user=user, organization_id=organization_id)
    with transaction.atomic():
        statement_import = _import_locked(organization_id=organization_id, import_id=import_id)
        if statement_import.status != StatementImport.Status.PREVIEWED:
            raise ServiceError(_("This statement has already been imported."), code="already_confirmed")
        is_bank = statement_import.collection_account.kind in BANK_KINDS
        if is_bank:
            # A bank row has no unique receipt: whether it is recorded is read from the ledger, so two
            # confirmations of overlapping statements of one account read and write one after the other.
            CollectionAccount.objects.select_for_update().filter(pk=statement_import.collection_account_id).first()
        preview = statement_preview(statement_import=statement_import)
        now = timezone.now()
        record = _bank_payments_record if is_bank else _mpesa_payments_record
        if statement_import.collection_account.kind == CollectionAccountKind.AIRTEL_MONEY:
            record = _airtel_payments_record
        links = record(statement_import, preview, user=user, send_receipts=send_receipts)
        ImportedPayment.objects.bulk_create(links, batch_size=BULK_BATCH_SIZE)
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
                "payments": len(links),
                "summary": statement_import.summary,
                "receipts_sent": send_receipts,
            },
        )
    return statement_import


def statement_import_undo(*, user: User, organization_id: int, import_id: int, reason: str) -> StatementImport:
    """Take back a whole confirmed import: each payment it recorded gets a reversing entry (so its
    pledge, or the pledge a treasurer assigned it to since, counts it no more), but one M-Pesa confirmed
    since with its amount and account (``payments_reverse_imported``); nothing else is touched. With a
    reason; audited."""
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


def statement_previews_expire(*, now: datetime | None = None) -> int:
    """Delete the previews nobody confirmed within ``PREVIEW_KEPT_FOR``, with the rows they keep (run by the
    scheduler). Nothing in the ledger changes: a preview has written nothing there. Answers how many."""
    now = now or timezone.now()
    deleted, _by_model = StatementImport.objects.filter(
        status=StatementImport.Status.PREVIEWED, created_at__lte=now - PREVIEW_KEPT_FOR
    ).delete()
    return deleted
