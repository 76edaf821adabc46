"""The ledger's core: constants, URLs, and the primitives every crediting path uses."""

import logging
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from common.client_routes import CLIENT_ROUTE_PATTERN
from common.errors import FieldValidationError, ServiceError
from common.money import AMOUNT_MAX
from payments import fees
from payments.models import (
    MpesaConnection,
    Payment,
    PaymentEvent,
)
from payments.providers.daraja import DarajaClient
from payments.signals import payment_succeeded

logger = logging.getLogger(__name__)
T = TypeVar("T")

Status = Payment.Status
Outcome = PaymentEvent.Outcome

# A callback usually comes within a minute; after this we ask the provider ourselves.
QUERY_AFTER = timedelta(minutes=2)
# An intent nobody paid within this is expired (a late success still credits it).
EXPIRE_AFTER = timedelta(hours=1)
# While a client polls a stale intent, the provider is asked at most this often.
QUERY_THROTTLE_SECONDS = 15
# Daraja's TransactionDesc holds 13 characters.
STK_DESCRIPTIONS = {
    Payment.Purpose.DONATION: "Donation",
    Payment.Purpose.PLEDGE_PAYMENT: "Pledge",
    Payment.Purpose.CAMPAIGN_ACTIVATION: "Activation",
    Payment.Purpose.SUBSCRIPTION: "Subscription",
}
STK_NO_ANSWER = "No answer from M-Pesa in time; waiting for its callback."
# How long the callback of a push whose answer timed out is still matched to it (past the expiry,
# since a late success still credits).
UNANSWERED_PUSH_WINDOW = timedelta(days=1)
# What is kept of a webhook body whose signature is wrong: its size, hash and first bytes.
REJECTED_BODY_HEAD_BYTES = 1024
C2B_INVALID_ACCOUNT = "C2B00012"
C2B_INVALID_AMOUNT = "C2B00013"
C2B_INVALID_SHORTCODE = "C2B00015"
# Money for an organization's campaigns: paid into its own accounts, never into Harambee's paybill.
GIVING_PURPOSES = (Payment.Purpose.DONATION, Payment.Purpose.PLEDGE_PAYMENT)


def _invalid(field: str, message: str) -> FieldValidationError:
    return FieldValidationError(_("Please correct the errors below"), field_errors={field: message})


def _check_amount(amount: int) -> None:
    if not 1 <= amount <= AMOUNT_MAX:
        raise _invalid("amount", _("Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000."))


def _provider_unavailable() -> ServiceError:
    return ServiceError(
        _("The payment service could not be reached. Please try again in a moment."), code="provider_unavailable"
    )


def stk_callback_url(connection: MpesaConnection | None = None) -> str:
    """The platform's STK callback URL, or a connected account's own (its token tells them apart)."""
    token = connection.callback_token if connection else settings.MPESA_CALLBACK_TOKEN
    path = reverse("api:payments_stk_callback", kwargs={"token": token})
    return f"{settings.MPESA_CALLBACK_BASE_URL}{path}"


def _daraja_for(connection: MpesaConnection | None) -> DarajaClient:
    """The platform's Daraja app (fees), or the organization's own for its connected account."""
    return DarajaClient.for_credentials(connection.credentials()) if connection else DarajaClient.from_settings()


def c2b_callback_urls() -> tuple[str, str]:
    """(confirmation, validation): Daraja refuses URLs that mention M-Pesa or Safaricom."""
    token = settings.MPESA_CALLBACK_TOKEN
    base = settings.MPESA_CALLBACK_BASE_URL
    return (
        base + reverse("api:payments_c2b_confirmation", kwargs={"token": token}),
        base + reverse("api:payments_c2b_validation", kwargs={"token": token}),
    )


def card_return_url() -> str:
    return f"{settings.SITE_URL}{reverse('api:payments_card_return')}"


def safe_return_path(path: str) -> str:
    """One of the app's own pages for the link back from the checkout, else the dashboard. Nothing
    else passes: not another host, nor a control character or space, which a browser drops from a
    link (``/\t/evil.example`` is ``//evil.example`` to it)."""
    if len(path) > 200 or not CLIENT_ROUTE_PATTERN.fullmatch(path):
        return "/dashboard"
    return path


# Crediting ---------------------------------------------------------------------------------


def _flag(payment: Payment, reason: str) -> None:
    payment.flagged = True
    payment.flag_reason = reason[:255]


def _credit(payment: Payment) -> None:
    """Succeed a locked payment and apply its effect (``fees``, then the ``payment_succeeded``
    receivers), inside the caller's transaction."""
    payment.issue_receipt(at=timezone.now())
    payment.save()
    if problem := fees.fee_paid_apply(payment=payment):
        _flag(payment, problem)
        payment.save(update_fields=["flagged", "flag_reason"])
    payment_succeeded.send(sender=Payment, payment=payment)


def _event(
    *,
    provider: str,
    kind: str,
    body: Any,
    outcome: str,
    payment: Payment | None = None,
    remote_addr: str | None = None,
) -> PaymentEvent:
    return PaymentEvent.objects.create(
        provider=provider, kind=kind, body=body, outcome=outcome, payment=payment, remote_addr=remote_addr or None
    )


def _callback_record(
    payment: Payment | None,
    *,
    succeeded: bool,
    vouched: bool,
    confirm: Callable[..., Any],
    apply: Callable[[Payment], str],
    record: Callable[..., PaymentEvent],
) -> PaymentEvent:
    """What a callback does to the locked payment it names, and its event (``record``, the callback's
    ``_event`` but for the payment and the outcome): nothing to an unknown one; a success nobody vouched
    for (whoever holds the callback URL could have sent it) credits nothing itself: ``confirm`` (a task)
    asks the provider once this commits, and its answer decides; anything else is ``apply``'s outcome."""
    if payment is None:
        outcome: str = Outcome.IGNORED_UNKNOWN
    elif succeeded and payment.status != Status.SUCCEEDED and not vouched:
        transaction.on_commit(partial(confirm, payment_id=payment.pk))
        outcome = Outcome.PENDING
    else:
        outcome = apply(payment)
    return record(payment=payment, outcome=outcome)


def _answer_record(
    payment: Payment, *, provider: str, kind: str, body: Any, apply: Callable[[Payment], str]
) -> tuple[Payment, str]:
    """Record what a provider answered when asked about ``payment`` (a query, an enquiry, a verify):
    under the payment's row lock, the outcome ``apply`` gives it and its event."""
    with transaction.atomic():
        locked = Payment.objects.select_for_update().get(pk=payment.pk)
        outcome = apply(locked)
        _event(provider=provider, kind=kind, body=body, payment=locked, outcome=outcome)
    return locked, outcome


def _receipt_used_elsewhere(payment: Payment, receipt: str) -> bool:
    """Whether another live payment of the same organization holds ``receipt`` (another organization's
    is another payment: receipts identify a payment where it landed)."""
    return (
        bool(receipt)
        and Payment.objects.holding_receipts(organization_id=payment.organization_id, receipts=[receipt])
        .exclude(pk=payment.pk)
        .exists()
    )


def _repeat_record(payment: Payment, receipt: str) -> str:
    """A report on a payment already succeeded or flagged (a repeat, or a failure after the success):
    never undone. A succeeded payment still without its receipt (a query credited it) takes ``receipt``,
    unless another payment of the organization holds it."""
    if (
        payment.status == Status.SUCCEEDED
        and receipt
        and not payment.mpesa_receipt
        and not _receipt_used_elsewhere(payment, receipt)
    ):
        payment.mpesa_receipt = receipt
        payment.save(update_fields=["mpesa_receipt"])
    return Outcome.DUPLICATE


def _flagged_for_a_used_receipt(payment: Payment, receipt: str, *, receipt_name: str) -> bool:
    """Whether a success reports a receipt another payment of the organization holds: one transaction
    cannot pay two intents (a replayed or forged report), so the payment is flagged, never credited."""
    if not _receipt_used_elsewhere(payment, receipt):
        return False
    _flag(payment, f"{receipt_name} {receipt} was already recorded for another payment.")
    payment.save(update_fields=["result_code", "result_desc", "flagged", "flag_reason"])
    return True


# Rows per INSERT or UPDATE statement: a 5,000-row statement in a handful of round trips, each well
# within SQLite's and PostgreSQL's limits on a statement's parameters.
BULK_BATCH_SIZE = 500
