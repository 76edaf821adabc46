"""Statement imports: the ledger's side (the statements app decides what to record)."""

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import ClassVar

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from collection_accounts.models import CollectionAccount
from common.errors import ServiceError
from payments import selectors
from payments.models import (
    Payment,
    PaymentEvent,
)
from payments.services.c2b import _payments_reported, _report_attach
from payments.services.core import BULK_BATCH_SIZE, Outcome, Status, logger
from payments.services.recording import _payments_reverse
from payments.signals import payments_succeeded

# Statement imports (the statements app decides what to record; this is the ledger's side) -------


@dataclass(frozen=True)
class StatementPayment:
    """A payment the statements app found on an M-Pesa statement, to be recorded and credited."""

    mpesa_receipt: str
    amount: int
    account_reference: str
    received_at: datetime
    payer_name: str
    notify_payer: bool

    @property
    def result_desc(self) -> str:
        """What its payment says it came from."""
        return f"From a statement: paid to account {self.account_reference!r} by {self.payer_name}"


# How often a statement's payments are read again when a receipt arrived another way meanwhile.
STATEMENT_RECORD_ATTEMPTS = 3


def _statement_reports(found: list[StatementPayment]) -> list[selectors.ReceiptReport]:
    return [
        selectors.ReceiptReport(
            mpesa_receipt=entry.mpesa_receipt,
            amount=entry.amount,
            account_reference=entry.account_reference,
            paid_at=entry.received_at,
        )
        for entry in found
    ]


def _statement_payments_create(
    entries: "Iterable[StatementPayment | BankStatementPayment]",
    *,
    provider: str,
    account: CollectionAccount,
    recorded_by: User,
) -> list[Payment]:
    """Insert the pledge payments a statement shows paid into ``account``, to be succeeded
    (``_payments_credit``) with the rest of the import."""
    return Payment.objects.bulk_create(
        [
            Payment(
                provider=provider,
                purpose=Payment.Purpose.PLEDGE_PAYMENT,
                amount=entry.amount,
                collection_account=account,
                organization_id=account.organization_id,
                recorded_by=recorded_by,
                mpesa_receipt=entry.mpesa_receipt,
                account_reference=entry.account_reference[:64],
                received_at=entry.received_at,
                notify_payer=entry.notify_payer,
                result_code="0",
                result_desc=entry.result_desc[:255],
            )
            for entry in entries
        ],
        batch_size=BULK_BATCH_SIZE,
    )


def _statement_payments_insert(
    *, account: CollectionAccount, recorded_by: User, found: list[StatementPayment]
) -> tuple[list[Payment], dict[str, Payment]]:
    """Insert the payments the ledger does not have yet, in one savepoint; the answer is those inserted and
    those found (by receipt, or PIN prompts taking their receipt now). The unique receipt is the guard:
    when a callback, a Pull or a treasurer records one of these receipts after it was read, the insert
    fails as a whole, the receipts are read again and the rest inserted; a receipt is never recorded twice
    in one organization."""
    waiting = list({entry.mpesa_receipt: entry for entry in found}.values())
    for _attempt in range(STATEMENT_RECORD_ATTEMPTS):
        known = _payments_reported(account=account, reports=_statement_reports(waiting))
        try:
            with transaction.atomic():
                inserted = _statement_payments_create(
                    (entry for entry in waiting if entry.mpesa_receipt not in known),
                    provider=Payment.Provider.MPESA_MANUAL,
                    account=account,
                    recorded_by=recorded_by,
                )
                return inserted, known
        except IntegrityError:
            logger.info("A statement's receipt was recorded another way meanwhile: reading the receipts again")
    raise ServiceError(
        _("Payments are arriving for these receipts right now. Please confirm the import again."),
        code="receipts_busy",
    )


def payments_record_from_statement(
    *, account: CollectionAccount, recorded_by: User, found: list[StatementPayment]
) -> list[Payment]:
    """Record and credit the payments found on ``account``'s M-Pesa statement, inside the caller's
    transaction and in a number of queries that does not grow with theirs. A row whose payment the
    organization's ledger has (by callback, query, Pull, a treasurer's entry or an earlier import; a PIN
    prompt confirmed without its receipt takes it now) credits nothing: it is kept as that payment's
    evidence, and flags it when it contradicts it. So a receipt is credited once whatever brings it
    first; the answer is the payments recorded. Like any paybill payment each is matched by its account
    reference (the ``payments_succeeded`` receivers)."""
    payments, known = _statement_payments_insert(account=account, recorded_by=recorded_by, found=found)
    _payments_credit(payments)
    inserted = {payment.mpesa_receipt: payment for payment in payments}
    events = []
    for entry, report in zip(found, _statement_reports(found), strict=True):
        outcome: str
        if entry.mpesa_receipt in inserted:
            payment, outcome = inserted.pop(entry.mpesa_receipt), Outcome.CREDITED
        elif entry.mpesa_receipt in known:
            payment = known.pop(entry.mpesa_receipt)
            outcome = _report_attach(payment, report, account=account)
        else:
            continue  # the same receipt twice in one file: one row is its evidence
        body = {**asdict(report), "paid_at": entry.received_at.isoformat(), "payer": entry.payer_name}
        events.append(
            PaymentEvent(
                provider=Payment.Provider.MPESA_MANUAL,
                kind=PaymentEvent.Kind.STATEMENT_ROW,
                body=body,
                payment=payment,
                outcome=outcome,
            )
        )
    PaymentEvent.objects.bulk_create(events, batch_size=BULK_BATCH_SIZE)
    return payments


def _payments_credit(payments: list[Payment]) -> None:
    """Succeed payments just inserted and apply their effect (the ``payments_succeeded`` receivers), inside
    the caller's transaction, in a number of queries that does not grow with theirs. For pledge payments
    only: no fee's effect applies (``fees``)."""
    if not payments:
        return
    now = timezone.now()
    # Each receipt number carries the key the insert gave: the database writes them all in one go.
    Payment.objects.filter(pk__in=[payment.pk for payment in payments]).update(
        status=Status.SUCCEEDED, settled_at=now, receipt_number=Payment.receipt_number_expression(at=now)
    )
    for payment in payments:
        payment.issue_receipt(at=now)
    payments_succeeded.send(sender=Payment, payments=payments)


@dataclass(frozen=True)
class BankStatementPayment:
    """A payment the statements app found on a bank statement, to be recorded and credited."""

    amount: int
    account_reference: str  # the pledge code, or what the payer typed
    bank_reference: str
    description: str
    received_at: datetime
    notify_payer: bool

    # A bank row has no receipt to keep it unique (see ``payments_record_from_bank_statement``).
    mpesa_receipt: ClassVar[None] = None

    @property
    def result_desc(self) -> str:
        """What its payment says it came from."""
        return f"From a bank statement: {self.bank_reference} {self.description}"


def payments_record_from_bank_statement(
    *, account: CollectionAccount, recorded_by: User, found: list[BankStatementPayment]
) -> list[Payment]:
    """Record and credit the payments found on ``account``'s bank statement, inside the caller's
    transaction and in a number of queries that does not grow with theirs, each matched by its account
    reference like any payment into the account (the ``payments_succeeded`` receivers). A bank row has no receipt to keep it unique: whether it was recorded before
    (the same day, amount and reference) is the statements app's question, asked under its lock."""
    payments = _statement_payments_create(
        found, provider=Payment.Provider.BANK, account=account, recorded_by=recorded_by
    )
    _payments_credit(payments)
    return payments


# What M-Pesa itself told us about a payment: the word of a statement's importer is not needed for it.
PROVIDER_REPORTS = (
    PaymentEvent.Kind.STK_CALLBACK,
    PaymentEvent.Kind.STK_QUERY,
    PaymentEvent.Kind.C2B_CONFIRMATION,
    PaymentEvent.Kind.PULL,
)


def payments_reverse_imported(*, payments: list[Payment], user: User, reason: str) -> int:
    """Reverse the payments a statement import recorded (the statements app has checked who may),
    each with its reversing entry, inside the caller's transaction, freeing their receipts; those
    reversed already are left, and so are those M-Pesa confirmed since (a paybill confirmation or Pull
    brought the same receipt, amount and account): that money stands without the statement. A report
    that contradicts the payment (another amount or account: flagged) vouches for nothing: the amount
    stood on the statement's word alone, so it is taken back, the contradicting report kept on it, still
    flagged, for a person. Answers how many were reversed."""
    vouched = PaymentEvent.objects.filter(
        payment_id=OuterRef("pk"), kind__in=PROVIDER_REPORTS, outcome=Outcome.DUPLICATE
    )
    # Only the payments' own rows: PostgreSQL cannot lock the outer join that finds the unreversed.
    locked = list(
        Payment.objects.select_for_update(of=("self",))
        .filter(pk__in=[payment.pk for payment in payments], reversed_at__isnull=True, status=Status.SUCCEEDED)
        .exclude(Exists(vouched))
        .order_by("pk")
    )
    if locked:
        _payments_reverse(payments=locked, user=user, reason=reason)
    return len(locked)
