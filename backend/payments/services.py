"""Writes to the payments ledger: the only code that changes an amount or a status.

The flow: an intent (a pending ``Payment``) -> the provider (STK prompt or hosted checkout)
-> a callback, a webhook or our own query -> the ledger -> the purpose's effect. Each write
runs in one transaction with the payment row locked, and the effect (campaign activation,
subscription, the ``payment_succeeded`` receivers) runs inside that same transaction, so a
credit and its effect happen together exactly once. Calls to providers happen outside any
transaction: a slow provider never holds a lock.

Rules every callback path follows: success is never undone (a failure arriving after it is a
duplicate); a success after a failure or expiry still credits (the money moved); a success
for another amount is recorded and flagged, never credited; unknown ids change nothing.
"""

import hashlib
import json
import logging
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, time, timedelta
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record, audit_record_many
from campaigns.models import Campaign
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from common import encryption, ratelimit
from common.client_routes import CLIENT_ROUTE_PATTERN
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from common.money import AMOUNT_MAX
from organizations.approvals import change_kind, register_change_kind
from organizations.models import ChangeRequest, ChangeRequestStatus
from organizations.roles import Permission
from organizations.services import change_request_submit
from payments import fees, selectors, tasks
from payments.models import (
    MANUAL_PROVIDERS,
    REFERENCE_LENGTH,
    MpesaConnection,
    MpesaStandingOrder,
    Payment,
    PaymentEvent,
    PaymentReversal,
)
from payments.providers import MalformedBody, ProviderError, ProviderTimeout, daraja, paystack
from payments.providers.daraja import DarajaClient, StandingOrderTerms, StkQueryAnswer, StkResult
from payments.providers.paystack import PaystackClient
from payments.signals import payment_succeeded, payments_reversed, payments_succeeded

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


# Intents --------------------------------------------------------------------------------


def _intent_create(
    *, user: User | None, purpose: str, idempotency_key: str | None, **fields: Any
) -> tuple[Payment, bool]:
    """A new pending payment, or the one this user already made with the same key."""
    key = (idempotency_key or "").strip()[:64]
    if key:
        existing = Payment.objects.filter(user=user, purpose=purpose, idempotency_key=key).first()
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            payment = Payment.objects.create(user=user, purpose=purpose, idempotency_key=key, **fields)
    except IntegrityError:
        # The same key arrived twice at the same moment: the other request made the intent.
        existing = Payment.objects.filter(user=user, purpose=purpose, idempotency_key=key).first()
        if not key or existing is None:
            raise
        return existing, False
    return payment, True


@transaction.atomic
def _intent_fail(*, payment: Payment, reason: str) -> None:
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    if payment.is_pending:
        payment.status = Status.FAILED
        payment.result_desc = reason[:255]
        payment.save(update_fields=["status", "result_desc"])


def _prompting_connection(account: CollectionAccount) -> MpesaConnection | None:
    try:
        return account.mpesa_connection
    except MpesaConnection.DoesNotExist:
        return None


def daraja_client_for(account: CollectionAccount | None) -> DarajaClient:
    """The Daraja client that sends PIN prompts to ``account``'s paybill or till, and asks about them:
    the organization's own Daraja app (its connection's credentials); None: Harambee's own paybill
    (``MPESA_SHORTCODE``), which takes only the platform's fees. The one place that knows whose
    shortcode a prompt goes to."""
    if account is None:
        return DarajaClient.from_settings()
    connection = _prompting_connection(account)
    if not account.offers_stk_push or connection is None:
        raise ServiceError(_("This account takes no M-Pesa prompts yet."), code="stk_unavailable")
    return _daraja_for(connection)


def payment_stk_push_limit_enforce(*, phone: str, client_ip: str) -> None:
    """Count a PIN prompt a client asks for; refuse it (429) past ``RATE_LIMIT_STK_PUSH_PHONE`` prompts
    to that phone or ``RATE_LIMIT_STK_PUSH_IP`` from that address. The endpoints call this, before
    the intent is recorded; an invalid phone number is left for the caller's validation."""
    limits = [ratelimit.Limit("stk-push-ip", client_ip, settings.RATE_LIMIT_STK_PUSH_IP)]
    if not validators.check_kenyan_phone(phone):
        phone_e164 = validators.normalize_kenyan_phone(phone)
        limits.append(ratelimit.Limit("stk-push-phone", phone_e164, settings.RATE_LIMIT_STK_PUSH_PHONE))
    # A refused prompt uses up none of them.
    ratelimit.enforce_all(
        limits=limits, message=_("Too many payment prompts. Please wait a few minutes and try again.")
    )


def payment_stk_push_start(
    *,
    purpose: str,
    amount: int,
    phone: str,
    user: User | None = None,
    campaign: Campaign | None = None,
    payer_email: str = "",
    idempotency_key: str | None = None,
    account_reference: str = "",
    collection_account: CollectionAccount | None = None,
) -> Payment:
    """Record an intent and send the M-Pesa PIN prompt to ``phone``.

    For any purpose: the donations and pledges apps call this with the amount the payer
    chose and the organization's account it goes to (``collection_account``, a connected paybill
    or till); the fee endpoints with the fee from settings and no account (Harambee's paybill).
    The answer is the pending intent; its outcome arrives by callback (or by our query when the
    callback does not come). ``account_reference`` (at most 12 characters, e.g. a pledge code) is
    what the payer's phone shows and is kept on the payment; by default the payment's own reference.
    """
    if purpose in GIVING_PURPOSES and collection_account is None:
        # A church's money never goes to the platform's paybill.
        raise ServiceError(
            _("This campaign takes no M-Pesa prompts: please pay as its instructions say."), code="stk_unavailable"
        )
    client = daraja_client_for(collection_account)
    if message := validators.check_kenyan_phone(phone):
        raise _invalid("phone", message)
    _check_amount(amount)
    connection = _prompting_connection(collection_account) if collection_account else None
    payment, created = _intent_create(
        user=user,
        purpose=purpose,
        idempotency_key=idempotency_key,
        provider=Payment.Provider.MPESA_STK,
        amount=amount,
        payer_phone=validators.normalize_kenyan_phone(phone),
        payer_email=payer_email,
        campaign=campaign,
        account_reference=account_reference,
        collection_account=collection_account,
    )
    if not created:
        return payment
    try:
        accepted = client.stk_push(
            phone=payment.payer_phone,
            amount=payment.amount,
            account_reference=payment.account_reference or payment.reference,
            description=STK_DESCRIPTIONS[Payment.Purpose(purpose)],
            callback_url=stk_callback_url(connection),
        )
    except ProviderTimeout as exc:
        # Daraja may have sent the prompt all the same: the intent stays pending (the client says it
        # keeps waiting). Its callback finds it by phone and amount (_stk_intent_unanswered), or
        # payments_reconcile expires it.
        logger.warning("STK Push for %s got no answer in time: %s", payment.reference, exc)
        Payment.objects.filter(pk=payment.pk, status=Status.PENDING).update(result_desc=STK_NO_ANSWER)
        payment.result_desc = STK_NO_ANSWER
        return payment
    except ProviderError as exc:
        logger.warning("STK Push for %s failed: %s", payment.reference, exc)
        _intent_fail(payment=payment, reason=str(exc))
        raise _provider_unavailable() from exc
    with transaction.atomic():
        payment = Payment.objects.select_for_update().get(pk=payment.pk)
        payment.checkout_request_id = accepted.checkout_request_id
        payment.merchant_request_id = accepted.merchant_request_id
        payment.result_desc = accepted.customer_message[:255]
        payment.save(update_fields=["checkout_request_id", "merchant_request_id", "result_desc"])
    return payment


def payment_instructed_intent_create(
    *,
    purpose: str,
    amount: int,
    phone: str,
    user: User | None,
    campaign: Campaign,
    payer_email: str,
    idempotency_key: str | None,
) -> Payment:
    """A pending M-Pesa payment the giver makes themselves, as the campaign's instructions say, with
    the payment's reference as the account number: for a campaign whose accounts take no PIN
    prompts. It succeeds when a paybill payment with that reference reaches its organization's account
    (``payment_record_c2b_confirmation``) or a treasurer matches it; it does not expire."""
    if phone and (message := validators.check_kenyan_phone(phone)):
        raise _invalid("phone", message)
    _check_amount(amount)
    payment, _created = _intent_create(
        user=user,
        purpose=purpose,
        idempotency_key=idempotency_key,
        provider=Payment.Provider.MPESA_C2B,
        amount=amount,
        payer_phone=validators.normalize_kenyan_phone(phone) if phone else "",
        payer_email=payer_email,
        campaign=campaign,
    )
    return payment


def payment_checkout_start(
    *,
    purpose: str,
    amount: int,
    email: str,
    user: User | None = None,
    campaign: Campaign | None = None,
    idempotency_key: str | None = None,
    return_path: str = "",
    collection_account: CollectionAccount | None = None,
) -> Payment:
    """Record an intent and open a Paystack hosted checkout for it (``checkout_url``). Donations and
    pledge payments settle to the organization's bank account (``collection_account``, one that
    takes cards, through its Paystack subaccount); the platform's fees, with no account, to Harambee's."""
    if purpose in GIVING_PURPOSES and (collection_account is None or not collection_account.takes_cards):
        # A church's money never settles to the platform's account.
        raise ServiceError(_("This campaign takes no card payments: please give by M-Pesa."), code="cards_unavailable")
    if message := validators.check_email(email):
        raise _invalid("email", message)
    _check_amount(amount)
    payment, created = _intent_create(
        user=user,
        purpose=purpose,
        idempotency_key=idempotency_key,
        provider=Payment.Provider.CARD,
        amount=amount,
        payer_email=email.strip(),
        campaign=campaign,
        return_path=safe_return_path(return_path),
        collection_account=collection_account,
    )
    if not created:
        return payment
    try:
        checkout = PaystackClient.from_settings().initialize(
            email=payment.payer_email,
            amount_kes=payment.amount,
            reference=payment.reference,
            callback_url=card_return_url(),
            metadata={"purpose": purpose, "campaign_id": payment.campaign_id},
            subaccount=collection_account.card_subaccount_code if collection_account else "",
        )
    except ProviderTimeout as exc:
        # Paystack may have opened the checkout, but there is no link to send the payer to. The intent
        # stays pending: payments_reconcile verifies it by its reference, then expires it.
        logger.warning("Checkout for %s got no answer in time: %s", payment.reference, exc)
        raise _provider_unavailable() from exc
    except ProviderError as exc:
        logger.warning("Checkout for %s failed: %s", payment.reference, exc)
        _intent_fail(payment=payment, reason=str(exc))
        raise _provider_unavailable() from exc
    with transaction.atomic():
        payment = Payment.objects.select_for_update().get(pk=payment.pk)
        payment.checkout_url = checkout.authorization_url
        payment.save(update_fields=["checkout_url"])
    return payment


def payment_fee_stk_push_start(
    *, user: User, purpose: str, campaign_id: int | None, phone: str, idempotency_key: str, client_ip: str
) -> Payment:
    """Pay the campaign activation or subscription fee by M-Pesa STK Push."""
    amount, campaign = fees.fee_terms(user=user, purpose=purpose, campaign_id=campaign_id)
    payment_stk_push_limit_enforce(phone=phone, client_ip=client_ip)
    return payment_stk_push_start(
        purpose=purpose,
        amount=amount,
        phone=phone,
        user=user,
        campaign=campaign,
        payer_email=user.email,
        idempotency_key=idempotency_key,
    )


def payment_fee_checkout_start(
    *, user: User, purpose: str, campaign_id: int | None, idempotency_key: str, return_path: str
) -> Payment:
    """Pay the campaign activation or subscription fee on the hosted card checkout."""
    amount, campaign = fees.fee_terms(user=user, purpose=purpose, campaign_id=campaign_id)
    return payment_checkout_start(
        purpose=purpose,
        amount=amount,
        email=user.email,
        user=user,
        campaign=campaign,
        idempotency_key=idempotency_key,
        return_path=return_path,
    )


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


def _receipt_used_elsewhere(payment: Payment, receipt: str) -> bool:
    """Whether another live payment of the same organization holds ``receipt`` (another organization's
    is another payment: receipts identify a payment where it landed)."""
    return (
        bool(receipt)
        and Payment.objects.holding_receipts(organization_id=payment.organization_id, receipts=[receipt])
        .exclude(pk=payment.pk)
        .exists()
    )


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
        # A repeat, or a failure arriving after the success: never undone. A callback after a
        # query credited the payment still brings the receipt number the query lacked.
        if (
            payment.status == Status.SUCCEEDED
            and result.mpesa_receipt
            and not payment.mpesa_receipt
            and not _receipt_used_elsewhere(payment, result.mpesa_receipt)
        ):
            payment.mpesa_receipt = result.mpesa_receipt
            payment.save(update_fields=["mpesa_receipt"])
        return Outcome.DUPLICATE
    if not result.succeeded and not payment.is_pending:
        return Outcome.DUPLICATE
    payment.result_code = str(result.result_code)
    payment.result_desc = result.result_desc
    if not result.succeeded:
        cancelled = result.result_code == daraja.RESULT_CANCELLED_BY_USER
        payment.status = Status.CANCELLED if cancelled else Status.FAILED
        payment.save(update_fields=["status", "result_code", "result_desc"])
        return Outcome.FAILED
    if _receipt_used_elsewhere(payment, result.mpesa_receipt):
        # One M-Pesa transaction cannot pay two intents: a replayed or forged callback.
        _flag(payment, f"M-Pesa receipt {result.mpesa_receipt} was already recorded for another payment.")
        payment.save(update_fields=["result_code", "result_desc", "flagged", "flag_reason"])
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
    try:
        result = daraja.parse_stk_callback(body)
    except MalformedBody:
        return _event(
            provider=provider, kind=kind, body=body, remote_addr=remote_addr, outcome=Outcome.REJECTED_MALFORMED
        )
    with transaction.atomic():
        payment = (
            Payment.objects.select_for_update()
            .filter(
                checkout_request_id=result.checkout_request_id,
                collection_account_id=connection.account_id if connection else None,
            )
            .first()
        )
        payment = payment or _stk_intent_unanswered(result, connection)
        outcome: str
        if payment is None:
            outcome = Outcome.IGNORED_UNKNOWN
        elif result.succeeded and payment.status != Status.SUCCEEDED and not _callback_vouched_for(remote_addr):
            transaction.on_commit(partial(tasks.stk_success_confirm.enqueue, payment_id=payment.pk))
            outcome = Outcome.PENDING
        else:
            outcome = _apply_stk_result(payment, result)
        return _event(
            provider=provider, kind=kind, body=body, remote_addr=remote_addr, payment=payment, outcome=outcome
        )


@transaction.atomic
def payment_record_stk_query_result(*, payment: Payment, answer: StkQueryAnswer) -> Payment:
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    outcome = Outcome.PENDING if answer.result is None else _apply_stk_result(payment, answer.result)
    _event(
        provider=Payment.Provider.MPESA_STK,
        kind=PaymentEvent.Kind.STK_QUERY,
        body=answer.body,
        payment=payment,
        outcome=outcome,
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
    with transaction.atomic():
        locked = Payment.objects.select_for_update().get(pk=payment.pk)
        outcome = _apply_card_transaction(locked, tx)
        _event(
            provider=Payment.Provider.CARD,
            kind=PaymentEvent.Kind.CARD_VERIFY,
            body=tx.body,
            payment=locked,
            outcome=outcome,
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
    provider, kind = Payment.Provider.CARD, PaymentEvent.Kind.CARD_WEBHOOK
    if not PaystackClient.from_settings().signature_is_valid(raw_body=raw_body, signature=signature):
        # Anyone can send these: a bounded summary is kept, never what they sent.
        summary = {
            "size": len(raw_body),
            "sha256": hashlib.sha256(raw_body).hexdigest(),
            "head": raw_body[:REJECTED_BODY_HEAD_BYTES].decode("utf-8", "replace"),
        }
        return _event(
            provider=provider, kind=kind, body=summary, remote_addr=remote_addr, outcome=Outcome.REJECTED_SIGNATURE
        )
    try:
        body: Any = json.loads(raw_body)
    except (ValueError, UnicodeDecodeError):
        body = {"raw": raw_body.decode("utf-8", "replace")[:10_000]}
    try:
        event_name, reference = paystack.parse_webhook(body)
    except MalformedBody:
        return _event(
            provider=provider, kind=kind, body=body, remote_addr=remote_addr, outcome=Outcome.REJECTED_MALFORMED
        )
    payment = Payment.objects.filter(provider=provider, reference=reference).first()
    if event_name != paystack.CHARGE_SUCCESS or payment is None:
        return _event(
            provider=provider,
            kind=kind,
            body=body,
            remote_addr=remote_addr,
            payment=payment,
            outcome=Outcome.IGNORED_UNKNOWN,
        )
    outcome = _card_verify(payment)
    return _event(provider=provider, kind=kind, body=body, remote_addr=remote_addr, payment=payment, outcome=outcome)


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


# Rows per INSERT or UPDATE statement: a 5,000-row statement in a handful of round trips, each well
# within SQLite's and PostgreSQL's limits on a statement's parameters.
BULK_BATCH_SIZE = 500
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
                inserted = Payment.objects.bulk_create(
                    [
                        Payment(
                            provider=Payment.Provider.MPESA_MANUAL,
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
                            result_desc=(
                                f"From a statement: paid to account {entry.account_reference!r} by {entry.payer_name}"
                            )[:255],
                        )
                        for entry in waiting
                        if entry.mpesa_receipt not in known
                    ],
                    batch_size=BULK_BATCH_SIZE,
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


def payments_record_from_bank_statement(
    *, account: CollectionAccount, recorded_by: User, found: list[BankStatementPayment]
) -> list[Payment]:
    """Record and credit the payments found on ``account``'s bank statement, inside the caller's
    transaction and in a number of queries that does not grow with theirs, each matched by its account
    reference like any payment into the account (the ``payments_succeeded`` receivers). A bank row has no receipt to keep it unique: whether it was recorded before
    (the same day, amount and reference) is the statements app's question, asked under its lock."""
    payments = Payment.objects.bulk_create(
        [
            Payment(
                provider=Payment.Provider.BANK,
                purpose=Payment.Purpose.PLEDGE_PAYMENT,
                amount=entry.amount,
                collection_account=account,
                organization_id=account.organization_id,
                recorded_by=recorded_by,
                account_reference=entry.account_reference[:64],
                received_at=entry.received_at,
                notify_payer=entry.notify_payer,
                result_code="0",
                result_desc=f"From a bank statement: {entry.bank_reference} {entry.description}"[:255],
            )
            for entry in found
        ],
        batch_size=BULK_BATCH_SIZE,
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
    brought the same receipt): that money stands without the statement. Answers how many were reversed."""
    vouched = PaymentEvent.objects.filter(payment_id=OuterRef("pk"), kind__in=PROVIDER_REPORTS)
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


# Stale intents -----------------------------------------------------------------------------


def _provider_refresh(payment: Payment) -> Payment:
    if payment.provider == Payment.Provider.MPESA_STK:
        return payment_stk_query(payment=payment)
    if payment.provider == Payment.Provider.CARD:
        _card_verify(payment)
        payment.refresh_from_db()
    if payment.provider == Payment.Provider.AIRTEL:
        from payments.airtel import payment_airtel_enquire  # it builds on this module

        return payment_airtel_enquire(payment=payment)
    return payment


def payment_status_check(*, reference: str, user: User | None) -> Payment:
    """A payment for a polling client. An intent pending past ``QUERY_AFTER`` is first
    looked up at the provider (at most every ``QUERY_THROTTLE_SECONDS``)."""
    payment = selectors.payment_get_for_viewer(reference=reference, user=user)
    stale = payment.created_at < timezone.now() - QUERY_AFTER
    if (
        payment.is_pending
        and not payment.flagged
        and stale
        and cache.add(f"payments:refresh:{payment.pk}", 1, QUERY_THROTTLE_SECONDS)
    ):
        payment = _provider_refresh(payment)
    return payment


@transaction.atomic
def payment_expire_stale(*, older_than: timedelta = EXPIRE_AFTER) -> int:
    """Expire intents nobody paid. Flagged ones wait for a person; a late success still credits."""
    stale = Payment.objects.select_for_update().filter(
        status=Status.PENDING,
        flagged=False,
        provider__in=[Payment.Provider.MPESA_STK, Payment.Provider.CARD, Payment.Provider.AIRTEL],
        created_at__lt=timezone.now() - older_than,
    )
    ids = list(stale.values_list("pk", flat=True))
    return Payment.objects.filter(pk__in=ids, status=Status.PENDING).update(
        status=Status.EXPIRED, result_desc="No answer from the payer in time."
    )


def payments_reconcile(
    *, query_after: timedelta = QUERY_AFTER, expire_after: timedelta = EXPIRE_AFTER
) -> dict[str, int]:
    """Ask the providers about every intent whose callback is overdue, then expire the old ones."""
    queried = 0
    for payment in selectors.payments_awaiting_outcome(older_than=query_after):
        _provider_refresh(payment)
        queried += 1
    return {"queried": queried, "expired": payment_expire_stale(older_than=expire_after)}


def mpesa_c2b_urls_register() -> dict[str, Any]:
    """Register our confirmation and validation URLs for the shortcode (once per deployment)."""
    confirmation_url, validation_url = c2b_callback_urls()
    return DarajaClient.from_settings().register_c2b_urls(
        confirmation_url=confirmation_url, validation_url=validation_url
    )


@transaction.atomic
def payments_personal_data_erase(*, user: User) -> None:
    """Forget who paid the user's payments (an account deletion, ``privacy``): the payer's number
    and address, and the provider bodies that carried them (STK phone numbers, C2B names, card
    customers). Amounts, receipts and outcomes stay on the payments and events, so the ledger
    still adds up and can be audited."""
    payments = selectors.payments_made_by(user=user)
    PaymentEvent.objects.filter(payment__in=payments).update(body={"erased": "personal data"})
    payments.update(payer_phone="", payer_email="")


# Connected M-Pesa: an organization's own Daraja app on its paybill or till -----------------------

PULL_EVERY = timedelta(minutes=10)
# Pull Transactions keeps 48 hours; asking for a minute less keeps clock differences from refusing it.
PULL_LOOKBACK = daraja.PULL_WINDOW - timedelta(minutes=1)


def _connection_of(account: CollectionAccount, *, lock: bool = True) -> MpesaConnection:
    connections = MpesaConnection.objects.select_for_update() if lock else MpesaConnection.objects
    connection = connections.filter(account=account).first()
    if connection is None:
        raise ServiceError(
            _("Enter the Daraja consumer key and secret, the passkey and the nominated number first."),
            code="mpesa_not_set_up",
        )
    connection.account = account
    return connection


# Setting credentials and connecting go through the two-person rule (registered in
# ``PaymentsConfig.ready``). A pending request holds the new credentials encrypted like the stored
# ones (never in clear), and drops them once it applies.
MPESA_CREDENTIALS_SET = "mpesa.credentials_set"
MPESA_CONNECT = "mpesa.connect"
CREDENTIAL_FIELDS = ("consumer_key", "consumer_secret", "passkey", "nominated_number")

ConnectionChange = MpesaConnection | ChangeRequest


def _account_words(payload: dict[str, Any]) -> str:
    kind = CollectionAccountKind(str(payload["kind"]))
    return f"{kind.label} {payload['number']}"


def _account_payload(account: CollectionAccount) -> dict[str, Any]:
    return {"account_id": account.pk, "kind": account.kind, "number": account.number}


def _submit(*, user: User, account: CollectionAccount, kind: str, payload: dict[str, Any]) -> ChangeRequest:
    summary = change_kind(kind).describe(ChangeRequest(kind=kind, payload=payload))
    return change_request_submit(
        user=user, organization=account.organization, kind=kind, payload=payload, summary=summary
    )


@transaction.atomic
def mpesa_connection_save(
    *,
    user: User,
    organization_id: int,
    account_id: int,
    consumer_key: str,
    consumer_secret: str,
    passkey: str,
    nominated_number: str,
) -> ConnectionChange:
    """Ask to set or replace the Daraja credentials of a paybill or till, under the two-person rule:
    answers the pending ``ChangeRequest``, or the connection once set. A blank field keeps what is
    stored (nothing can be read back, so a form never holds it); a new connection needs every one.
    Audited by field name only: never a value."""
    account = selectors.mpesa_account_for_manager(
        user=user, organization_id=organization_id, account_id=account_id, lock=True
    )
    connection = MpesaConnection.objects.filter(account=account).first()
    values = {
        "consumer_key": consumer_key.strip(),
        "consumer_secret": consumer_secret.strip(),
        "passkey": passkey.strip(),
        "nominated_number": nominated_number.strip(),
    }
    errors: dict[str, str] = {}
    if values["nominated_number"]:
        if message := validators.check_kenyan_phone(values["nominated_number"]):
            errors["nominated_number"] = message
        else:
            values["nominated_number"] = validators.normalize_kenyan_phone(values["nominated_number"])
    if connection is None:
        errors.update({name: _("This field is required.") for name, value in values.items() if not value})
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    changed = sorted(name for name, value in values.items() if value)
    if not changed:
        assert connection is not None
        connection.account = account
        return connection
    request = _submit(
        user=user,
        account=account,
        kind=MPESA_CREDENTIALS_SET,
        payload={
            **_account_payload(account),
            "fields": changed,
            "encrypted": {name: encryption.encrypt(values[name]) for name in changed},
        },
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    connection = MpesaConnection.objects.get(account=account)
    connection.account = account
    return connection


def _requested_account(request: ChangeRequest, *, lock: bool = True) -> CollectionAccount:
    accounts = CollectionAccount.objects.select_for_update() if lock else CollectionAccount.objects
    account = accounts.filter(organization=request.organization, pk=int(request.payload["account_id"])).first()
    if account is None:
        raise NotFoundError(_("Account not found."), code="not_found")
    if account.number != request.payload["number"]:
        raise ServiceError(
            _("This account was changed since the request was made: please ask again."), code="account_changed"
        )
    return account


def _mpesa_credentials_apply(request: ChangeRequest) -> None:
    account = _requested_account(request)
    values = {name: encryption.decrypt(value) for name, value in request.payload["encrypted"].items()}
    connection = MpesaConnection.objects.select_for_update().filter(account=account).first()
    if connection is None:
        if set(values) != set(CREDENTIAL_FIELDS):
            raise ServiceError(
                _("Enter the Daraja consumer key and secret, the passkey and the nominated number first."),
                code="mpesa_not_set_up",
            )
        MpesaConnection.objects.create(account=account, **values)
    else:
        for name, value in values.items():
            setattr(connection, name, value)
        connection.save()
    # Applied: the request keeps which fields it replaced, not even their ciphertext.
    request.payload = {name: value for name, value in request.payload.items() if name != "encrypted"}
    ChangeRequest.objects.filter(pk=request.pk).update(payload=request.payload)
    audit_record(
        actor=request.decided_by,
        action=AuditAction.MPESA_CREDENTIALS_SET,
        target=account,
        after={"replaced": request.payload["fields"]},
    )


@transaction.atomic
def pending_credentials_reencrypt() -> int:
    """Encrypt again with the first key the credentials change requests still hold (those waiting
    for approval, or withdrawn or lapsed before it: an applied one holds none); the number of values
    rewritten. Run by ``manage.py rotate_secrets_key`` (registered in ``PaymentsConfig.ready``)."""
    rewritten = 0
    held = ChangeRequest.objects.select_for_update().filter(kind=MPESA_CREDENTIALS_SET, payload__has_key="encrypted")
    for request in held:
        encrypted = {name: encryption.reencrypt(value) for name, value in request.payload["encrypted"].items()}
        ChangeRequest.objects.filter(pk=request.pk).update(payload={**request.payload, "encrypted": encrypted})
        rewritten += len(encrypted)
    return rewritten


def _mpesa_credentials_describe(request: ChangeRequest) -> str:
    names = {
        "consumer_key": _("consumer key"),
        "consumer_secret": _("consumer secret"),
        "passkey": _("passkey"),
        "nominated_number": _("nominated number"),
    }
    return _("Set the M-Pesa API credentials of %(account)s (%(fields)s).") % {
        "account": _account_words(request.payload),
        "fields": ", ".join(str(names[name]) for name in request.payload["fields"]),
    }


def _daraja_refusal_error(exc: ProviderError, account: CollectionAccount) -> ServiceError:
    """Each way a connection fails, in words a treasurer can act on."""
    shortcode = account.mpesa_shortcode
    if isinstance(exc, daraja.CredentialsRefused):
        return ServiceError(
            _("M-Pesa refused the consumer key and secret. Copy both again from your app on the Daraja portal."),
            code="mpesa_wrong_credentials",
        )
    if isinstance(exc, daraja.ShortcodeRefused):
        return ServiceError(
            _(
                "M-Pesa does not let this Daraja app use %(shortcode)s. Check the number, and that the app is "
                "linked to it."
            )
            % {"shortcode": shortcode},
            code="mpesa_wrong_shortcode",
        )
    if isinstance(exc, daraja.PasskeyRefused):
        return ServiceError(
            _("The passkey does not match %(shortcode)s. Enter the Lipa Na M-Pesa passkey Safaricom sent for it.")
            % {"shortcode": shortcode},
            code="mpesa_wrong_passkey",
        )
    return ServiceError(
        _("M-Pesa could not be reached. Nothing was changed; please try again in a few minutes."),
        code="provider_unavailable",
    )


def _daraja_call(account: CollectionAccount, call: Callable[[], T]) -> T:
    try:
        return call()
    except ProviderError as exc:
        # The exception names the refusal, never a credential.
        logger.warning("M-Pesa connection of collection account %s failed: %s", account.pk, exc)
        raise _daraja_refusal_error(exc, account) from exc


def mpesa_connection_test(*, user: User, organization_id: int, account_id: int) -> MpesaConnection:
    """Fetch a token and check the shortcode and passkey with them; registers nothing."""
    with transaction.atomic():
        account = selectors.mpesa_account_for_manager(
            user=user, organization_id=organization_id, account_id=account_id, lock=True
        )
        connection = _connection_of(account)
    _daraja_call(account, _daraja_for(connection).check_shortcode)
    MpesaConnection.objects.filter(pk=connection.pk).update(last_tested_at=timezone.now())
    connection.refresh_from_db(fields=["last_tested_at"])
    return connection


def mpesa_connection_connect(
    *, user: User, organization_id: int, account_id: int, reregister: bool = False
) -> ConnectionChange:
    """Ask to register the account's confirmation and validation URLs and Pull Transactions with
    Daraja, under the two-person rule: once, again only when asked to (``reregister``, e.g. after a
    new callback address). Answers the pending ``ChangeRequest``, or the connection once registered
    (Daraja's refusal, in words a treasurer can act on, registers nothing). Daraja is asked outside
    any transaction (``_mpesa_connect_call``)."""
    with transaction.atomic():
        account = selectors.mpesa_account_for_manager(
            user=user, organization_id=organization_id, account_id=account_id, lock=True
        )
        _connection_ready(account=account, reregister=reregister)
    request = _submit(
        user=user, account=account, kind=MPESA_CONNECT, payload={**_account_payload(account), "reregister": reregister}
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    connection = MpesaConnection.objects.get(account=account)
    connection.account = CollectionAccount.objects.get(pk=account.pk)
    return connection


def _connection_ready(*, account: CollectionAccount, reregister: bool, lock: bool = True) -> MpesaConnection:
    connection = _connection_of(account, lock=lock)
    if connection.c2b_registered_at and not reregister:
        raise ServiceError(
            _("This account is already connected. Choose Re-register to register its addresses again."),
            code="mpesa_already_connected",
        )
    if not connection.nominated_number:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={"nominated_number": _("Pull Transactions needs the organization's Safaricom number.")},
        )
    return connection


def _mpesa_connect_call(request: ChangeRequest) -> dict[str, object]:
    """Register the addresses with Daraja, before the approval's transaction (nothing is locked
    while Daraja answers): a refusal leaves the request pending, with the reason shown to the one
    who approved. Registering again what is registered changes nothing at Daraja."""
    account = _requested_account(request, lock=False)
    connection = _connection_ready(account=account, reregister=bool(request.payload["reregister"]), lock=False)
    client = _daraja_for(connection)
    urls = selectors.mpesa_callback_urls(connection)
    _daraja_call(
        account,
        lambda: client.register_c2b_urls(
            confirmation_url=urls["c2b_confirmation"], validation_url=urls["c2b_validation"]
        ),
    )
    # Missed confirmations are what Pull recovers: it calls back to the confirmation URL too.
    _daraja_call(account, lambda: client.register_pull(callback_url=urls["c2b_confirmation"]))
    return {}


def _mpesa_connect_apply(request: ChangeRequest) -> None:
    """Record what ``_mpesa_connect_call`` registered, once the account is checked again, locked."""
    account = _requested_account(request)
    reregister = bool(request.payload["reregister"])
    connection = _connection_ready(account=account, reregister=reregister)
    now = timezone.now()
    MpesaConnection.objects.filter(pk=connection.pk).update(c2b_registered_at=now, pull_registered_at=now)
    CollectionAccount.objects.filter(pk=account.pk, mpesa_connected_at__isnull=True).update(mpesa_connected_at=now)
    audit_record(
        actor=request.decided_by,
        action=AuditAction.MPESA_REREGISTERED if reregister else AuditAction.MPESA_CONNECTED,
        target=account,
        after={"shortcode": account.mpesa_shortcode},
    )


def _mpesa_connect_describe(request: ChangeRequest) -> str:
    account = _account_words(request.payload)
    if request.payload["reregister"]:
        return _("Register the M-Pesa addresses of %(account)s again.") % {"account": account}
    return _("Connect %(account)s to M-Pesa's API: its payments reach Harambee and PIN prompts go to it.") % {
        "account": account
    }


def mpesa_pull_run(*, connection: MpesaConnection) -> dict[str, int]:
    """Ask Pull Transactions for the account's last 48 hours and credit, once by receipt, each
    payment whose confirmation never came; a payment recorded another way gets the Pull as its evidence,
    once. Receipts an earlier Pull brought are skipped before anything is written, so running it often
    adds nothing; a confirmation arriving meanwhile meets the unique receipt and stays the only credit."""
    now = timezone.now()
    client = _daraja_for(connection)
    pulled = client.pull_transactions(start=now - PULL_LOOKBACK, end=now)
    MpesaConnection.objects.filter(pk=connection.pk).update(last_pulled_at=now)
    known = set(
        PaymentEvent.objects.filter(
            kind=PaymentEvent.Kind.PULL,
            payment__in=Payment.objects.holding_receipts(
                organization_id=connection.account.organization_id, receipts=[p.trans_id for p in pulled]
            ),
        ).values_list("payment__mpesa_receipt", flat=True)
    )
    credited = 0
    for transaction_ in pulled:
        if transaction_.trans_id in known:
            continue
        event = _c2b_record(
            notification=transaction_.as_c2b_notification(),
            connection=connection,
            kind=PaymentEvent.Kind.PULL,
            body=asdict(transaction_) | {"trans_time": transaction_.trans_time.isoformat()},
            remote_addr=None,
        )
        credited += event.outcome == Outcome.CREDITED
    return {"pulled": len(pulled), "credited": credited}


def mpesa_pull_now(*, user: User, organization_id: int, account_id: int) -> dict[str, int]:
    """A treasurer's "Pull now"."""
    with transaction.atomic():
        account = selectors.mpesa_account_for_manager(
            user=user, organization_id=organization_id, account_id=account_id, lock=True
        )
        connection = _connection_of(account)
        if connection.pull_registered_at is None:
            raise ServiceError(_("Connect the account first."), code="mpesa_not_connected")
    return _daraja_call(account, lambda: mpesa_pull_run(connection=connection))


def mpesa_pull_due(*, every: timedelta = PULL_EVERY) -> dict[str, int]:
    """Pull every connected account not pulled for ``every`` (run each minute by the scheduler, so
    each account is pulled about every ten). An account is claimed by moving its ``last_pulled_at``
    first, so two schedulers never pull the same one at once; either would credit nothing twice."""
    now = timezone.now()
    due = MpesaConnection.objects.filter(pull_registered_at__isnull=False).filter(
        Q(last_pulled_at__isnull=True) | Q(last_pulled_at__lt=now - every)
    )
    totals = {"accounts": 0, "pulled": 0, "credited": 0, "failed": 0}
    for connection in due.select_related("account"):
        claimed = MpesaConnection.objects.filter(pk=connection.pk, last_pulled_at=connection.last_pulled_at).update(
            last_pulled_at=now
        )
        if not claimed:
            continue
        totals["accounts"] += 1
        try:
            counts = mpesa_pull_run(connection=connection)
        except ProviderError as exc:
            logger.warning("Pull Transactions of collection account %s failed: %s", connection.account_id, exc)
            totals["failed"] += 1
            continue
        totals["pulled"] += counts["pulled"]
        totals["credited"] += counts["credited"]
    return totals


# Cards: an organization's card payments settle to its own bank account -------------------------------

# Harambee keeps no share of a church's card payments (Paystack's own fee is the church's: see
# PaystackClient.initialize).
PLATFORM_CARD_SHARE_PERCENT = 0
BANK_CODE = re.compile(r"^[A-Za-z0-9]{1,32}$")


# Setting up cards and the Ratiba switch are payment details too: under the two-person rule like the
# credentials and Connect (registered in ``PaymentsConfig.ready``), checked when asked and again when
# applied. Paystack is asked before the approval's transaction, as Daraja is for Connect: a refusal
# keeps it pending.
CARD_SUBACCOUNT_SET = "cards.subaccount_set"
MPESA_RATIBA_SET = "mpesa.ratiba_set"

AccountChange = CollectionAccount | ChangeRequest


def _settlement_bank_clean(settlement_bank: str) -> str:
    bank = settlement_bank.strip()
    if not BANK_CODE.match(bank):
        raise _invalid("settlement_bank", _("Enter your bank's code as Paystack lists it (letters and digits)."))
    return bank


def card_subaccount_set(*, user: User, organization_id: int, account_id: int, settlement_bank: str) -> AccountChange:
    """Ask that card payments to the organization's campaigns settle from now on to this bank account,
    under the two-person rule: answers the pending ``ChangeRequest``, or the account once set up (a
    Paystack subaccount made for its number at the bank whose Paystack code is ``settlement_bank``,
    replacing any earlier one, named in every card checkout of its donations). Owners and
    treasurers; audited. Paystack checks the account, outside any transaction
    (``_card_subaccount_call``): a refusal says why, and changes nothing."""
    account = selectors.card_account_for_manager(user=user, organization_id=organization_id, account_id=account_id)
    request = _submit(
        user=user,
        account=account,
        kind=CARD_SUBACCOUNT_SET,
        payload={**_account_payload(account), "settlement_bank": _settlement_bank_clean(settlement_bank)},
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    return CollectionAccount.objects.get(pk=account.pk)


def _card_bank_account(request: ChangeRequest, *, lock: bool) -> CollectionAccount:
    account = _requested_account(request, lock=lock)  # refused if its number changed since
    if account.kind != CollectionAccountKind.BANK:
        raise ServiceError(_("Card payments settle to a bank account: choose one."), code="not_bank_account")
    return account


def _card_subaccount_call(request: ChangeRequest) -> dict[str, object]:
    """Ask Paystack for a subaccount settling to the bank account, before the approval's transaction."""
    account = _card_bank_account(request, lock=False)
    bank = _settlement_bank_clean(str(request.payload["settlement_bank"]))
    try:
        subaccount = PaystackClient.from_settings().subaccount_create(
            business_name=request.organization.name,
            settlement_bank=bank,
            account_number=account.account_number,
            percentage_charge=PLATFORM_CARD_SHARE_PERCENT,
        )
    except paystack.PaystackRefused as exc:
        raise ServiceError(
            _("Paystack did not accept this bank account (%(reason)s). Check the bank code and the account number.")
            % {"reason": exc.message},
            code="card_account_refused",
        ) from exc
    except ProviderError as exc:
        logger.warning("Paystack subaccount for collection account %s failed: %s", account.pk, exc)
        raise _provider_unavailable() from exc
    return {"subaccount_code": subaccount.subaccount_code}


def _card_subaccount_apply(request: ChangeRequest) -> None:
    """Record the subaccount ``_card_subaccount_call`` made, once the account is checked again, locked."""
    account = _card_bank_account(request, lock=True)
    bank = _settlement_bank_clean(str(request.payload["settlement_bank"]))
    before = {
        "card_subaccount_code": account.card_subaccount_code,
        "card_settlement_bank": account.card_settlement_bank,
    }
    account.card_subaccount_code = str(request.payload["answer"]["subaccount_code"])
    account.card_settlement_bank = bank
    account.save(update_fields=["card_subaccount_code", "card_settlement_bank", "updated_at"])
    audit_record(
        actor=request.decided_by,
        action=AuditAction.COLLECTION_ACCOUNT_CHANGED,
        target=request.organization,
        before={"id": account.pk, **before},
        after={"id": account.pk, "card_subaccount_code": account.card_subaccount_code, "card_settlement_bank": bank},
    )


def _card_subaccount_describe(request: ChangeRequest) -> str:
    return _("Take card payments into %(account)s (bank code %(bank)s at Paystack).") % {
        "account": _account_words(request.payload),
        "bank": request.payload["settlement_bank"],
    }


# M-Pesa Ratiba: standing orders to a connected paybill ---------------------------------------


def _ratiba_allowed(*, account: CollectionAccount, enabled: bool) -> MpesaConnection:
    connection = _connection_of(account)
    if enabled and account.kind != CollectionAccountKind.PAYBILL:
        raise ServiceError(
            _("M-Pesa Ratiba is offered on a paybill only: a till payment carries no pledge code."),
            code="ratiba_paybill_only",
        )
    return connection


@transaction.atomic
def mpesa_ratiba_set(*, user: User, organization_id: int, account_id: int, enabled: bool) -> ConnectionChange:
    """Ask to say whether Safaricom enabled M-Pesa Ratiba for the account (a commercial agreement we
    cannot check): only then are pledgers offered to pay their plans automatically. A connected
    paybill only (a till payment carries no account number); owners and treasurers, under the
    two-person rule (answers the pending ``ChangeRequest``, or the connection once set); audited."""
    account = selectors.mpesa_account_for_manager(
        user=user, organization_id=organization_id, account_id=account_id, lock=True
    )
    _ratiba_allowed(account=account, enabled=enabled)
    request = _submit(
        user=user, account=account, kind=MPESA_RATIBA_SET, payload={**_account_payload(account), "enabled": enabled}
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    connection = MpesaConnection.objects.get(account=account)
    connection.account = account
    return connection


def _mpesa_ratiba_apply(request: ChangeRequest) -> None:
    account = _requested_account(request)
    enabled = bool(request.payload["enabled"])
    connection = _ratiba_allowed(account=account, enabled=enabled)
    before = connection.ratiba_enabled
    connection.ratiba_enabled = enabled
    connection.save(update_fields=["ratiba_enabled", "updated_at"])
    audit_record(
        actor=request.decided_by,
        action=AuditAction.MPESA_RATIBA_SET,
        target=account,
        before={"ratiba_enabled": before},
        after={"ratiba_enabled": enabled},
    )


def _mpesa_ratiba_describe(request: ChangeRequest) -> str:
    account = _account_words(request.payload)
    if request.payload["enabled"]:
        return _("Offer M-Pesa Ratiba (standing orders) on %(account)s.") % {"account": account}
    return _("Stop offering M-Pesa Ratiba (standing orders) on %(account)s.") % {"account": account}


def register_payment_detail_change_kinds() -> None:
    """Called by ``PaymentsConfig.ready``."""
    register_change_kind(MPESA_CREDENTIALS_SET, apply=_mpesa_credentials_apply, describe=_mpesa_credentials_describe)
    register_change_kind(
        MPESA_CONNECT, apply=_mpesa_connect_apply, describe=_mpesa_connect_describe, call=_mpesa_connect_call
    )
    register_change_kind(MPESA_RATIBA_SET, apply=_mpesa_ratiba_apply, describe=_mpesa_ratiba_describe)
    register_change_kind(
        CARD_SUBACCOUNT_SET,
        apply=_card_subaccount_apply,
        describe=_card_subaccount_describe,
        call=_card_subaccount_call,
    )


def standing_order_record(*, account: CollectionAccount, terms: StandingOrderTerms) -> MpesaStandingOrder:
    """A pending standing order, inside the caller's transaction; ``standing_order_send`` then asks
    the payer for it. Refused (400) unless the account takes standing orders."""
    if selectors.standing_order_connection(account) is None:
        raise ServiceError(
            _("Paying automatically with M-Pesa is not offered for this campaign."), code="standing_order_unavailable"
        )
    return MpesaStandingOrder.objects.create(
        account=account,
        name=terms.name,
        phone=terms.phone,
        amount=terms.amount,
        frequency=terms.frequency,
        start_on=terms.start_on,
        end_on=terms.end_on,
        account_reference=terms.account_reference,
    )


def _standing_order_terms(order: MpesaStandingOrder, *, description: str) -> StandingOrderTerms:
    return StandingOrderTerms(
        name=order.name,
        phone=order.phone,
        amount=order.amount,
        frequency=order.frequency,
        start_on=order.start_on,
        end_on=order.end_on,
        account_reference=order.account_reference,
        description=description,
    )


def standing_order_send(*, order: MpesaStandingOrder, description: str) -> MpesaStandingOrder:
    """Send the approval prompt of a pending order (outside any transaction: Daraja may be slow). A
    refusal marks it failed and answers 400 with a message; the callback settles an accepted one."""
    connection = selectors.standing_order_connection(order.account)
    if connection is None:
        reason = "Ratiba is no longer enabled for this account."
    else:
        try:
            _daraja_for(connection).standing_order_create(
                _standing_order_terms(order, description=description),
                callback_url=selectors.standing_order_callback_url(connection=connection, order=order),
            )
        except ProviderTimeout:
            # Ratiba may well have sent the prompt: its callback decides, as for any accepted order.
            logger.warning("Standing order %s: no answer from Daraja in time", order.reference)
            return order
        except ProviderError as exc:
            logger.warning("Standing order %s was refused: %s", order.reference, exc)
            reason = str(exc)
        else:
            return order
    with transaction.atomic():
        MpesaStandingOrder.objects.filter(pk=order.pk, status=MpesaStandingOrder.Status.PENDING).update(
            status=MpesaStandingOrder.Status.FAILED, result_desc=reason[:255], settled_at=timezone.now()
        )
    raise ServiceError(
        _("M-Pesa did not take the standing order. Your plan stays as it was: please pay each instalment yourself."),
        code="standing_order_refused",
    )


def standing_order_record_callback(
    *, reference: str, body: Any, remote_addr: str | None, connection: MpesaConnection | None
) -> PaymentEvent:
    """The payer's answer to a standing order, from Ratiba's callback to the order's own URL: active
    or failed, once (a repeated callback is a duplicate). Kept as a ``PaymentEvent`` either way; an
    order of another account, or none, changes nothing."""
    kind = PaymentEvent.Kind.STANDING_ORDER_CALLBACK
    provider = Payment.Provider.MPESA_C2B
    try:
        result = daraja.parse_standing_order_callback(body)
    except MalformedBody:
        return PaymentEvent.objects.create(
            provider=provider, kind=kind, body=body, remote_addr=remote_addr, outcome=Outcome.REJECTED_MALFORMED
        )
    with transaction.atomic():
        order = (
            MpesaStandingOrder.objects.select_for_update()
            .filter(reference=reference[:REFERENCE_LENGTH], account__mpesa_connection=connection)
            .first()
            if connection is not None
            else None
        )
        if order is None:
            outcome = Outcome.IGNORED_UNKNOWN
        elif order.status != MpesaStandingOrder.Status.PENDING:
            outcome = Outcome.DUPLICATE
        else:
            order.status = MpesaStandingOrder.Status.ACTIVE if result.succeeded else MpesaStandingOrder.Status.FAILED
            order.result_code, order.result_desc = result.result_code, result.result_desc
            order.transaction_id, order.settled_at = result.transaction_id, timezone.now()
            order.save(update_fields=["status", "result_code", "result_desc", "transaction_id", "settled_at"])
            outcome = Outcome.ACCEPTED if result.succeeded else Outcome.FAILED
        return PaymentEvent.objects.create(
            provider=provider, kind=kind, body=body, remote_addr=remote_addr, outcome=outcome
        )
