"""Recording by hand: manual entries, the desk, donations taken, reversals."""

import re
from datetime import date, datetime, time

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record, audit_record_many
from campaigns.models import Campaign
from common.errors import NotFoundError, PermissionDeniedError, ServiceError
from organizations.roles import Permission
from payments.models import (
    MANUAL_PROVIDERS,
    REFERENCE_LENGTH,
    Payment,
    PaymentReversal,
)
from payments.services.core import BULK_BATCH_SIZE, Status, _check_amount, _credit, _invalid
from payments.signals import payments_reversed

MPESA_RECEIPT_PATTERN = re.compile(r"^[A-Z0-9]{10}$")
# A received date gives the entry a moment on that day: midday, so that no time zone moves it.
RECEIVED_TIME = time(12)
REVERSAL_REASON_MAX_LENGTH = 500


def _received_at(received_on: date | None) -> datetime | None:
    """When money received on ``received_on`` counts: None (now) for today or no date, else midday
    that day in Nairobi. A future date is refused."""
    today = timezone.localdate()
    if received_on is None or received_on == today:
        return None
    if received_on > today:
        raise _invalid("received_on", _("The date received cannot be in the future."))
    return timezone.make_aware(datetime.combine(received_on, RECEIVED_TIME))


def _mpesa_receipt_clean(receipt: str, *, organization_id: int) -> str:
    """An M-Pesa receipt code (10 letters and digits, e.g. SLK4H7R2QX) the organization has not recorded
    (another organization's is another payment)."""
    receipt = mpesa_receipt_normalize(receipt)
    if Payment.objects.holding_receipts(organization_id=organization_id, receipts=[receipt]).exists():
        raise _invalid("reference", _("This M-Pesa receipt has already been recorded."))
    return receipt


def payment_record_manual(
    *,
    recorded_by: User,
    provider: str,
    purpose: str,
    amount: int,
    campaign: Campaign,
    payer_phone: str = "",
    payer_email: str = "",
    note: str = "",
    reference: str = "",
    received_on: date | None = None,
    account_reference: str = "",
) -> Payment:
    """A payment an organizer (or an admin) received outside our paybill, credited at once: cash,
    a bank transfer (``reference``: its bank reference, optional) or M-Pesa to the organization's
    own number (``reference``: its M-Pesa receipt code, required; one receipt is one credit, here
    and in every callback). ``received_on`` in the past makes it count on that day.
    ``account_reference`` says what it pays, e.g. a pledge code (see pledges.receivers)."""
    if not campaign.allows(recorded_by, Permission.MANAGE_PLEDGES):
        raise PermissionDeniedError(
            _("Only the campaign's owners and treasurers can record payments."), code="forbidden"
        )
    if provider not in MANUAL_PROVIDERS:
        raise _invalid("provider", _("Please choose cash, bank transfer or M-Pesa"))
    if purpose not in (Payment.Purpose.DONATION, Payment.Purpose.PLEDGE_PAYMENT):
        raise _invalid("purpose", _("Please choose a valid payment purpose"))
    _check_amount(amount)
    if payer_phone and (message := validators.check_kenyan_phone(payer_phone)):
        raise _invalid("payer_phone", message)
    received_at = _received_at(received_on)
    mpesa_receipt = (
        _mpesa_receipt_clean(reference, organization_id=campaign.organization_id)
        if provider == Payment.Provider.MPESA_MANUAL
        else None
    )
    # A cash or bank entry's own reference (a bank's, a receipt book's) is kept unique too.
    other_reference = None if mpesa_receipt else (reference.strip() or None)
    with transaction.atomic():
        try:
            with transaction.atomic():
                payment = Payment.objects.create(
                    provider=provider,
                    purpose=purpose,
                    amount=amount,
                    campaign=campaign,
                    recorded_by=recorded_by,
                    payer_phone=validators.normalize_kenyan_phone(payer_phone) if payer_phone else "",
                    payer_email=payer_email.strip(),
                    note=note.strip(),
                    provider_reference=other_reference,
                    mpesa_receipt=mpesa_receipt,
                    received_at=received_at,
                    account_reference=account_reference,
                )
        except IntegrityError:
            # The same reference at the same moment (a double submit, or a callback with that receipt).
            message = (
                _("This M-Pesa receipt has already been recorded.")
                if mpesa_receipt
                else _("This bank reference has already been recorded")
            )
            raise _invalid("reference", message) from None
        payment = Payment.objects.select_for_update().get(pk=payment.pk)
        _credit(payment)
        audit_record(
            actor=recorded_by,
            action=AuditAction.PAYMENT_RECORDED,
            target=payment,
            after={
                "provider": payment.provider,
                "purpose": payment.purpose,
                "amount": payment.amount,
                "campaign": campaign.pk,
                "account_reference": payment.account_reference,
                "bank_reference": payment.provider_reference or "",
                "mpesa_receipt": payment.mpesa_receipt or "",
                "received_on": timezone.localdate(payment.received_at or payment.settled_at).isoformat(),
                "receipt_number": payment.receipt_number,
            },
        )
    return payment


def mpesa_receipt_normalize(receipt: str) -> str:
    """An M-Pesa receipt code as the ledger keeps it (upper case), or a field error on ``reference``."""
    receipt = receipt.strip().upper()
    if not MPESA_RECEIPT_PATTERN.match(receipt):
        raise _invalid("reference", _("Please enter the M-Pesa receipt code: 10 letters and digits, e.g. SLK4H7R2QX."))
    return receipt


def payment_with_receipt_locked(*, organization_id: int, mpesa_receipt: str) -> Payment | None:
    """The organization's live payment with this M-Pesa receipt (its confirmation, a Pull, a statement or
    an earlier entry brought it), locked; None when there is none."""
    return (
        Payment.objects.holding_receipts(organization_id=organization_id, receipts=[mpesa_receipt])
        .select_for_update(of=("self",))
        .select_related("collection_account")
        .first()
    )


def payment_record_at_desk(
    *,
    campaign: Campaign,
    provider: str,
    amount: int,
    mpesa_receipt: str | None,
    recorded_by: User | None,
    payer_phone: str,
) -> Payment | None:
    """A gift taken at an event's desk (the desk app has checked who may), credited at once as a
    donation payment of ``campaign``: cash, or M-Pesa paid to the church's own number with its
    receipt code. Inside the caller's transaction. None when the receipt reached the ledger first
    (``payment_with_receipt_locked`` then finds it): one receipt, one credit, whichever way it came;
    a confirmation arriving later with it is answered as a duplicate (``_c2b_record``)."""
    try:
        with transaction.atomic():
            payment = Payment.objects.create(
                provider=provider,
                purpose=Payment.Purpose.DONATION,
                amount=amount,
                campaign=campaign,
                recorded_by=recorded_by,
                payer_phone=payer_phone,
                mpesa_receipt=mpesa_receipt,
            )
    except IntegrityError:
        return None
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    _credit(payment)
    return payment


def payment_take_as_donation(*, payment: Payment, campaign: Campaign) -> None:
    """A locked succeeded payment that paid nothing yet (an M-Pesa receipt whose confirmation came
    before the usher's entry) becomes a donation payment of ``campaign``; the caller records the
    donation and counts it, inside its transaction."""
    payment.purpose = Payment.Purpose.DONATION
    payment.campaign = campaign
    payment.set_aside = ""
    payment.save(update_fields=["purpose", "campaign", "set_aside"])


def payment_reverse(*, reference: str, user: User, reason: str) -> Payment:
    """Take back a payment recorded by hand by mistake, with a reversing entry (``PaymentReversal``):
    the payment row stays as it was; from now on it counts towards nothing, and the
    ``payments_reversed`` receivers take back what it paid (a pledge's paid amount, a donation) in
    the same transaction. Only the campaign's organizer or an admin, with a reason; audited.
    Payments the providers told us about are not reversed here: the money did move."""
    reason = reason.strip()
    with transaction.atomic():
        payment = (
            Payment.objects.select_for_update(of=("self",))
            .select_related("campaign")
            .filter(reference=reference.strip().upper()[:REFERENCE_LENGTH], status=Status.SUCCEEDED)
            .first()
        )
        if payment is None or payment.campaign is None or not payment.campaign.is_visible_to(user):
            raise NotFoundError(_("Payment not found."), code="payment_not_found")
        if not payment.campaign.allows(user, Permission.MANAGE_PLEDGES):
            raise PermissionDeniedError(
                _("Only the campaign's organizer or an admin can reverse payments."), code="not_organizer"
            )
        if not reason:
            raise _invalid("reason", _("Please give the reason for the reversal."))
        if len(reason) > REVERSAL_REASON_MAX_LENGTH:
            raise _invalid("reason", _("Please keep the reason under 500 characters."))
        if not payment.is_manual:
            raise ServiceError(
                _("Only payments recorded by hand can be reversed: M-Pesa and card payments did reach the account."),
                code="not_manual",
            )
        if PaymentReversal.objects.filter(payment=payment).exists():
            raise ServiceError(_("This payment has already been reversed."), code="already_reversed")
        _reverse(payment=payment, user=user, reason=reason)
    return payment


def _reverse(*, payment: Payment, user: User, reason: str) -> None:
    """The reversing entry of a locked payment, its receivers' take-back and its audit entry."""
    _payments_reverse(payments=[payment], user=user, reason=reason)


def _payments_reverse(*, payments: list[Payment], user: User, reason: str) -> None:
    """The reversing entries of locked payments, their receivers' take-back and their audit entries, in a
    number of queries that does not grow with theirs."""
    before = {payment.pk: {"amount": payment.amount, "counted_at": payment.counted_at} for payment in payments}
    PaymentReversal.objects.bulk_create(
        [PaymentReversal(payment=payment, reason=reason, reversed_by=user) for payment in payments],
        batch_size=BULK_BATCH_SIZE,
    )
    payments_reversed.send(sender=Payment, payments=payments, user=user, reason=reason)
    # Its receipt identifies no payment from now on: the money may be recorded again, rightly this time.
    now = timezone.now()
    Payment.objects.filter(pk__in=[payment.pk for payment in payments]).update(counted_at=None, reversed_at=now)
    for payment in payments:
        payment.counted_at, payment.reversed_at = None, now
    audit_record_many(
        actor=user,
        action=AuditAction.PAYMENT_REVERSED,
        changes=[
            (payment, before[payment.pk], {"amount": payment.amount, "counted_at": None, "reason": reason})
            for payment in payments
        ],
    )
