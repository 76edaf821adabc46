"""Crediting C2B: paybill and till payments people make themselves (validation and confirmation)."""

from datetime import datetime
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import validators
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from common.money import AMOUNT_MAX
from payments import selectors
from payments.models import (
    REFERENCE_LENGTH,
    MpesaConnection,
    Payment,
    PaymentEvent,
)
from payments.providers import MalformedBody, daraja
from payments.services.core import (
    BULK_BATCH_SIZE,
    C2B_INVALID_ACCOUNT,
    C2B_INVALID_AMOUNT,
    C2B_INVALID_SHORTCODE,
    Outcome,
    Status,
    _credit,
    _event,
    _flag,
)


def _c2b_answer(code: str | int, description: str) -> dict[str, Any]:
    return {"ResultCode": code, "ResultDesc": description}


def _c2b_shortcode_ours(shortcode: str, connection: MpesaConnection | None) -> bool:
    """Only an organization's connected account sends us its paybill's payments, to its own URLs, and
    only for its own paybill (or its till, or the till's store). Nothing paid into Harambee's own
    paybill is a church's money: the platform's URLs credit no C2B payment."""
    return connection is not None and connection.pays_to(shortcode)


def payment_validate_c2b(
    *, body: Any, remote_addr: str | None, connection: MpesaConnection | None = None
) -> dict[str, Any]:
    """Daraja's question before a paybill payment completes (only if Safaricom enabled it): accept
    any payment with an account number (a till payment has none) to the connected account whose URL
    it came to (the pledges app matches it); refuse one to Harambee's own paybill, which takes no
    church's money."""
    try:
        notification = daraja.parse_c2b_notification(body)
    except MalformedBody:
        notification = None
    till = connection is not None and connection.account.kind == CollectionAccountKind.TILL
    if notification is None:
        answer = _c2b_answer(C2B_INVALID_AMOUNT, "Rejected")
    elif not _c2b_shortcode_ours(notification.shortcode, connection):
        answer = _c2b_answer(C2B_INVALID_SHORTCODE, "Rejected")
    elif not notification.bill_ref_number and not till:
        answer = _c2b_answer(C2B_INVALID_ACCOUNT, "Rejected")
    elif notification.amount > AMOUNT_MAX:
        answer = _c2b_answer(C2B_INVALID_AMOUNT, "Rejected")
    else:
        answer = _c2b_answer(0, "Accepted")
    _event(
        provider=Payment.Provider.MPESA_C2B,
        kind=PaymentEvent.Kind.C2B_VALIDATION,
        body=body,
        remote_addr=remote_addr,
        outcome=Outcome.ACCEPTED if answer["ResultCode"] == 0 else Outcome.REJECTED,
    )
    return answer


def _e164_or_blank(msisdn: str) -> str:
    """C2B numbers are usually masked ("2547 ***** 126"): keep only a real number."""
    return "" if validators.check_kenyan_phone(f"+{msisdn.lstrip('+')}") else f"+{msisdn.lstrip('+')}"


def _instructed_intent(*, account: CollectionAccount, reference: str) -> Payment | None:
    """The locked pending payment a giver was told to pay into ``account``'s organization with
    ``reference`` as the account number (``payment_instructed_intent_create``), if that is one."""
    reference = reference.strip().upper()
    if len(reference) != REFERENCE_LENGTH:
        return None
    return (
        Payment.objects.select_for_update()
        .filter(
            reference=reference,
            provider=Payment.Provider.MPESA_C2B,
            status=Status.PENDING,
            campaign__organization_id=account.organization_id,
        )
        .first()
    )


def payment_record_c2b_confirmation(
    *, body: Any, remote_addr: str | None, connection: MpesaConnection | None = None
) -> PaymentEvent:
    """Money someone paid into an organization's connected paybill or till (the account whose URL it
    came to), with the account number they typed. Money paid into Harambee's own paybill credits
    nothing: the event is kept for a person."""
    try:
        notification = daraja.parse_c2b_notification(body)
    except MalformedBody:
        return _event(
            provider=Payment.Provider.MPESA_C2B,
            kind=PaymentEvent.Kind.C2B_CONFIRMATION,
            body=body,
            remote_addr=remote_addr,
            outcome=Outcome.REJECTED_MALFORMED,
        )
    return _c2b_record(
        notification=notification,
        connection=connection,
        kind=PaymentEvent.Kind.C2B_CONFIRMATION,
        body=body,
        remote_addr=remote_addr,
    )


def _c2b_record(
    *,
    notification: daraja.C2BNotification,
    connection: MpesaConnection | None,
    kind: str,
    body: Any,
    remote_addr: str | None,
) -> PaymentEvent:
    """A C2B payment, from its confirmation or from Pull Transactions. Paid with the reference of a
    pending payment of that organization (a donation without PIN prompts), it completes that payment.
    Otherwise it is recorded as a succeeded pledge payment into the connection's account, keeping
    ``account_reference``; matching it to one of the organization's pledges is the pledges app's job
    (``payment_succeeded``). One credit per TransID, whichever of the two brings it first.
    """
    provider = Payment.Provider.MPESA_C2B
    if connection is None or not _c2b_shortcode_ours(notification.shortcode, connection):
        return _event(provider=provider, kind=kind, body=body, remote_addr=remote_addr, outcome=Outcome.IGNORED_UNKNOWN)
    account = connection.account
    if notification.amount > AMOUNT_MAX:
        # No real payment is that large (nor fits the ledger): kept for a person to look at, answered
        # 200 so Safaricom stops sending it.
        return _event(
            provider=provider, kind=kind, body=body, remote_addr=remote_addr, outcome=Outcome.FLAGGED_MISMATCH
        )
    paid = {
        "mpesa_receipt": notification.trans_id,
        "account_reference": notification.bill_ref_number,
        "result_code": "0",
        "result_desc": f"Paid to account {notification.bill_ref_number!r} by {notification.first_name}"[:255],
    }
    report = selectors.ReceiptReport(
        mpesa_receipt=notification.trans_id,
        amount=notification.amount,
        account_reference=notification.bill_ref_number,
        paid_at=_c2b_paid_at(notification.trans_time),
    )
    record = partial(_event, provider=provider, kind=kind, body=body, remote_addr=remote_addr)
    with transaction.atomic():
        known = _payments_reported(account=account, reports=[report]).get(report.mpesa_receipt)
        if known is not None:
            return record(payment=known, outcome=_report_attach(known, report, account=account))
        try:
            with transaction.atomic():  # a concurrent duplicate may insert the same TransID first
                payment = _instructed_intent(account=account, reference=notification.bill_ref_number)
                if payment is None:
                    payment = Payment.objects.create(
                        provider=provider,
                        purpose=Payment.Purpose.PLEDGE_PAYMENT,
                        amount=notification.amount,
                        payer_phone=_e164_or_blank(notification.msisdn),
                        collection_account=account,
                        **paid,
                    )
                else:
                    for field, value in {**paid, "collection_account": account}.items():
                        setattr(payment, field, value)
                    payment.save()
        except IntegrityError:
            duplicate = (
                Payment.objects.holding_receipts(
                    organization_id=account.organization_id, receipts=[report.mpesa_receipt]
                )
                .select_for_update()
                .first()
            )
            outcome = Outcome.DUPLICATE if duplicate is None else _report_attach(duplicate, report, account=account)
            return record(payment=duplicate, outcome=outcome)
        if payment.amount != notification.amount:
            _flag(payment, f"M-Pesa reports KES {notification.amount} paid for an intent of KES {payment.amount}.")
            payment.save(update_fields=["flagged", "flag_reason"])
            outcome = Outcome.FLAGGED_MISMATCH
        else:
            _credit(payment)
            outcome = Outcome.CREDITED
        return record(payment=payment, outcome=outcome)


def _c2b_paid_at(trans_time: str) -> datetime:
    """When M-Pesa says the money moved (``TransTime``, Kenya's clock: 20261122103000); now if unreadable."""
    try:
        return datetime.strptime(trans_time, "%Y%m%d%H%M%S").replace(tzinfo=timezone.get_default_timezone())
    except ValueError:
        return timezone.now()


def _payments_reported(*, account: CollectionAccount, reports: list[selectors.ReceiptReport]) -> dict[str, Payment]:
    """The live payments of ``account``'s organization these reports are, by receipt, locked: those holding
    the receipt, and PIN prompts confirmed without one (``selectors.prompts_awaiting_receipts``), which take
    their receipt now. Two queries, and one write when prompts take receipts."""
    receipts = [report.mpesa_receipt for report in reports]
    held = {
        payment.mpesa_receipt or "": payment
        for payment in Payment.objects.holding_receipts(organization_id=account.organization_id, receipts=receipts)
        .select_for_update(of=("self",))
        .select_related("collection_account")
    }
    prompts = selectors.prompts_awaiting_receipts(
        account_id=account.pk, reports=[report for report in reports if report.mpesa_receipt not in held], lock=True
    )
    for receipt, payment in prompts.items():
        payment.mpesa_receipt = receipt
    Payment.objects.bulk_update(prompts.values(), ["mpesa_receipt"], batch_size=BULK_BATCH_SIZE)
    return held | prompts


def _report_attach(payment: Payment, report: selectors.ReceiptReport, *, account: CollectionAccount) -> str:
    """Another report of a recorded payment (locked): it credits nothing. One that contradicts it (another
    amount, another of the organization's accounts) flags the payment for a person; the caller keeps the
    report itself as the payment's event."""
    problem = ""
    if report.amount != payment.amount:
        problem = f"M-Pesa receipt {report.mpesa_receipt} is reported again for KES {report.amount}, not KES {payment.amount}."
    elif payment.collection_account_id not in (None, account.pk):
        problem = f"M-Pesa receipt {report.mpesa_receipt} is reported again as paid into another account."
    if not problem:
        return Outcome.DUPLICATE
    _flag(payment, problem)
    payment.save(update_fields=["flagged", "flag_reason"])
    return Outcome.FLAGGED_MISMATCH
