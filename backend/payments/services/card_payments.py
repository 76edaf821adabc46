"""Crediting a card payment: Paystack's webhook and our own verification."""

import hashlib
import json
from functools import partial
from typing import Any

from django.utils.translation import gettext as _

from common.errors import NotFoundError
from payments.models import (
    Payment,
    PaymentEvent,
)
from payments.providers import MalformedBody, ProviderError, paystack
from payments.providers.paystack import PaystackClient
from payments.services.core import (
    REJECTED_BODY_HEAD_BYTES,
    Outcome,
    Status,
    _answer_record,
    _credit,
    _event,
    _flag,
    logger,
)


def _apply_card_transaction(payment: Payment, tx: paystack.Transaction) -> str:
    if payment.status == Status.SUCCEEDED or payment.flagged:
        return Outcome.DUPLICATE
    if tx.status not in ("success", "failed") or (tx.status == "failed" and not payment.is_pending):
        # abandoned (not paid yet), ongoing, pending: nothing to record yet.
        return Outcome.PENDING if payment.is_pending else Outcome.DUPLICATE
    payment.result_code = tx.status
    payment.result_desc = tx.gateway_response
    if tx.status == "success":
        payment.provider_reference = tx.transaction_id
        if not tx.pays(payment.amount):
            _flag(payment, f"Paystack reports {tx.amount_subunit} {tx.currency} (subunits) for KES {payment.amount}.")
            payment.save()
            return Outcome.FLAGGED_MISMATCH
        _credit(payment)
        return Outcome.CREDITED
    payment.status = Status.FAILED
    payment.save(update_fields=["status", "result_code", "result_desc"])
    return Outcome.FAILED


def _card_verify(payment: Payment) -> str:
    """Ask Paystack for the transaction and record what it says."""
    try:
        tx = PaystackClient.from_settings().verify(payment.reference)
    except ProviderError as exc:
        logger.warning("Paystack verify for %s failed: %s", payment.reference, exc)
        return Outcome.PENDING
    _locked, outcome = _answer_record(
        payment,
        provider=Payment.Provider.CARD,
        kind=PaymentEvent.Kind.CARD_VERIFY,
        body=tx.body,
        apply=lambda locked: _apply_card_transaction(locked, tx),
    )
    return outcome


def payment_confirm_card(*, reference: str) -> Payment:
    """The payer is back from the checkout (or a webhook came): verify with Paystack, then record."""
    payment = Payment.objects.filter(provider=Payment.Provider.CARD, reference=reference.strip().upper()).first()
    if payment is None:
        raise NotFoundError(_("Payment not found."), code="not_found")
    if payment.is_pending and not payment.flagged:
        _card_verify(payment)
        payment.refresh_from_db()
    return payment


def payment_record_card_webhook(*, raw_body: bytes, signature: str, remote_addr: str | None) -> PaymentEvent:
    """A Paystack webhook: checked against its signature, then confirmed by verifying."""
    record = partial(
        _event, provider=Payment.Provider.CARD, kind=PaymentEvent.Kind.CARD_WEBHOOK, remote_addr=remote_addr
    )
    if not PaystackClient.from_settings().signature_is_valid(raw_body=raw_body, signature=signature):
        # Anyone can send these: a bounded summary is kept, never what they sent.
        summary = {
            "size": len(raw_body),
            "sha256": hashlib.sha256(raw_body).hexdigest(),
            "head": raw_body[:REJECTED_BODY_HEAD_BYTES].decode("utf-8", "replace"),
        }
        return record(body=summary, outcome=Outcome.REJECTED_SIGNATURE)
    try:
        body: Any = json.loads(raw_body)
    except (ValueError, UnicodeDecodeError):
        body = {"raw": raw_body.decode("utf-8", "replace")[:10_000]}
    record = partial(record, body=body)
    try:
        event_name, reference = paystack.parse_webhook(body)
    except MalformedBody:
        return record(outcome=Outcome.REJECTED_MALFORMED)
    payment = Payment.objects.filter(provider=Payment.Provider.CARD, reference=reference).first()
    if event_name != paystack.CHARGE_SUCCESS or payment is None:
        return record(payment=payment, outcome=Outcome.IGNORED_UNKNOWN)
    return record(payment=payment, outcome=_card_verify(payment))
