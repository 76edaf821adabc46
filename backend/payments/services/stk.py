"""Crediting an STK Push: its callback and our own query of it."""

from dataclasses import replace
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.money import AMOUNT_MAX
from payments import tasks
from payments.models import (
    MpesaConnection,
    Payment,
    PaymentEvent,
)
from payments.providers import MalformedBody, ProviderError, daraja
from payments.providers.daraja import StkQueryAnswer, StkResult
from payments.services.c2b import _e164_or_blank
from payments.services.core import (
    UNANSWERED_PUSH_WINDOW,
    Outcome,
    Status,
    _answer_record,
    _callback_record,
    _credit,
    _event,
    _flag,
    _flagged_for_a_used_receipt,
    _receipt_used_elsewhere,
    _repeat_record,
    logger,
)
from payments.services.intents import daraja_client_for


def _callback_receipt(payment: Payment) -> str:
    """The M-Pesa receipt the payment's own success callback brought when nobody vouched for its sender
    (so Daraja's query decided, and its answer carries no receipt): the receipt is what a statement and
    Pull Transactions will list the payment under. Only a callback of the payment's own amount counts."""
    bodies = PaymentEvent.objects.filter(
        payment=payment, kind=PaymentEvent.Kind.STK_CALLBACK, outcome=Outcome.PENDING
    ).values_list("body", flat=True)
    for body in bodies:
        result = daraja.parse_stk_callback(body)
        if result.succeeded and result.mpesa_receipt and result.amount in (None, payment.amount):
            return result.mpesa_receipt
    return ""


def _apply_stk_result(payment: Payment, result: StkResult) -> str:
    if result.succeeded and not result.mpesa_receipt and payment.status != Status.SUCCEEDED:
        # A query's success: the receipt is its callback's, unless another payment holds it already (the
        # callback's sender was not vouched for; the query credits the payment all the same).
        receipt = _callback_receipt(payment)
        if not _receipt_used_elsewhere(payment, receipt):
            result = replace(result, mpesa_receipt=receipt)
    if payment.status == Status.SUCCEEDED or payment.flagged:
        # A callback after a query credited the payment still brings the receipt number the query lacked.
        return _repeat_record(payment, result.mpesa_receipt)
    if not result.succeeded and not payment.is_pending:
        return Outcome.DUPLICATE
    payment.result_code = str(result.result_code)
    payment.result_desc = result.result_desc
    if not result.succeeded:
        cancelled = result.result_code == daraja.RESULT_CANCELLED_BY_USER
        payment.status = Status.CANCELLED if cancelled else Status.FAILED
        payment.save(update_fields=["status", "result_code", "result_desc"])
        return Outcome.FAILED
    if _flagged_for_a_used_receipt(payment, result.mpesa_receipt, receipt_name="M-Pesa receipt"):
        return Outcome.FLAGGED_MISMATCH
    payment.mpesa_receipt = result.mpesa_receipt or None
    if result.amount is not None and result.amount != payment.amount:
        _flag(payment, f"M-Pesa reports KES {result.amount} paid for an intent of KES {payment.amount}.")
        payment.save(update_fields=["mpesa_receipt", "result_code", "result_desc", "flagged", "flag_reason"])
        return Outcome.FLAGGED_MISMATCH
    # A query's success carries no amount: the STK prompt itself fixed it to the intent's.
    _credit(payment)
    return Outcome.CREDITED


def _stk_intent_unanswered(result: StkResult, connection: MpesaConnection | None) -> Payment | None:
    """The locked intent of a push whose answer timed out, so its CheckoutRequestID was never
    learnt: the only one waiting for this phone and amount within ``UNANSWERED_PUSH_WINDOW`` (a
    success callback names both; a failure names neither, and the intent expires)."""
    phone = _e164_or_blank(result.phone)
    if not (phone and result.amount) or result.amount > AMOUNT_MAX:
        return None
    waiting = list(
        Payment.objects.select_for_update().filter(
            provider=Payment.Provider.MPESA_STK,
            collection_account_id=connection.account_id if connection else None,
            checkout_request_id__isnull=True,
            status__in=[Status.PENDING, Status.EXPIRED],
            payer_phone=phone,
            amount=result.amount,
            created_at__gte=timezone.now() - UNANSWERED_PUSH_WINDOW,
        )[:2]
    )
    if len(waiting) != 1:
        return None
    payment = waiting[0]
    payment.checkout_request_id = result.checkout_request_id
    payment.merchant_request_id = result.merchant_request_id
    payment.save(update_fields=["checkout_request_id", "merchant_request_id"])
    return payment


def _callback_vouched_for(remote_addr: str | None) -> bool:
    """Daraja signs nothing: only an address on ``MPESA_ALLOWED_IPS`` vouches that Safaricom sent it."""
    return bool(settings.MPESA_ALLOWED_IPS) and remote_addr in settings.MPESA_ALLOWED_IPS


def payment_record_stk_callback(
    *, body: Any, remote_addr: str | None, connection: MpesaConnection | None = None
) -> PaymentEvent:
    """An STK Push callback from Daraja. A malformed body changes nothing but the audit log.

    ``connection``: the connected account whose callback URL (token) it came to; None for the
    platform's. Only that account's own pushes are matched.

    A success from an address nobody vouched for (any, while ``MPESA_ALLOWED_IPS`` is empty) credits
    nothing itself: whoever holds the callback token could have sent it. Once it is answered, a task
    asks Daraja about the push (``tasks.stk_success_confirm``), and Daraja's answer decides."""
    provider, kind = Payment.Provider.MPESA_STK, PaymentEvent.Kind.STK_CALLBACK
    record = partial(_event, provider=provider, kind=kind, body=body, remote_addr=remote_addr)
    try:
        result = daraja.parse_stk_callback(body)
    except MalformedBody:
        return record(outcome=Outcome.REJECTED_MALFORMED)
    with transaction.atomic():
        payment = (
            Payment.objects.select_for_update()
            .filter(
                checkout_request_id=result.checkout_request_id,
                collection_account_id=connection.account_id if connection else None,
            )
            .first()
        )
        return _callback_record(
            payment or _stk_intent_unanswered(result, connection),
            succeeded=result.succeeded,
            vouched=_callback_vouched_for(remote_addr),
            confirm=tasks.stk_success_confirm.enqueue,
            apply=lambda payment: _apply_stk_result(payment, result),
            record=record,
        )


def payment_record_stk_query_result(*, payment: Payment, answer: StkQueryAnswer) -> Payment:
    payment, _outcome = _answer_record(
        payment,
        provider=Payment.Provider.MPESA_STK,
        kind=PaymentEvent.Kind.STK_QUERY,
        body=answer.body,
        apply=lambda locked: Outcome.PENDING if answer.result is None else _apply_stk_result(locked, answer.result),
    )
    return payment


def payment_stk_query(*, payment: Payment) -> Payment:
    """Ask Daraja how a pending STK Push ended, for when its callback never came."""
    if not payment.checkout_request_id:
        return payment
    try:
        answer = daraja_client_for(payment.collection_account).stk_query(
            checkout_request_id=payment.checkout_request_id
        )
    except ProviderError as exc:
        logger.warning("STK query for %s failed: %s", payment.reference, exc)
        return payment
    return payment_record_stk_query_result(payment=payment, answer=answer)
