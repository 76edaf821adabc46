"""Intents: a pending ``Payment`` and the provider asked to collect it (STK Push, checkout, instructions)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, NotRequired, TypedDict, TypeVar, Unpack

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from campaigns.models import Campaign
from collection_accounts.models import CollectionAccount
from common import ratelimit
from common.errors import ServiceError
from payments import fees
from payments.models import (
    MpesaConnection,
    Payment,
)
from payments.providers import ProviderError, ProviderTimeout
from payments.providers.daraja import DarajaClient, StkPushAccepted
from payments.providers.paystack import PaystackClient
from payments.services.core import (
    GIVING_PURPOSES,
    STK_DESCRIPTIONS,
    STK_NO_ANSWER,
    Status,
    _check_amount,
    _daraja_for,
    _invalid,
    _provider_unavailable,
    card_return_url,
    logger,
    safe_return_path,
    stk_callback_url,
)

Accepted = TypeVar("Accepted")

# Intents --------------------------------------------------------------------------------


def _intent_create(
    *, purpose: str, amount: int, user: User | None = None, idempotency_key: str | None = None, **fields: Any
) -> tuple[Payment, bool]:
    """A new pending payment of ``amount`` (checked), or the one this user already made with the same key."""
    _check_amount(amount)
    key = (idempotency_key or "").strip()[:64]
    if key:
        existing = Payment.objects.filter(user=user, purpose=purpose, idempotency_key=key).first()
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            payment = Payment.objects.create(user=user, purpose=purpose, idempotency_key=key, amount=amount, **fields)
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


class PromptIntent(TypedDict):
    """What a prompt on the payer's phone is for (``payment_stk_push_start``, ``payment_airtel_push_start``):
    ``account_reference`` (e.g. a pledge code) is what the payer's phone shows; by default the payment's
    own reference."""

    purpose: str
    amount: int
    phone: str
    user: NotRequired[User | None]
    campaign: NotRequired[Campaign | None]
    payer_email: NotRequired[str]
    idempotency_key: NotRequired[str | None]
    account_reference: NotRequired[str]


@dataclass(frozen=True)
class PromptChannel(Generic[Accepted]):
    """How a provider prompts the payer for their PIN (M-Pesa's STK Push, Airtel Money's USSD push):
    ``send`` asks it to prompt for a new intent, ``accepted`` records its acceptance on the intent;
    ``name`` says which prompt in the log, and ``no_answer`` is what an intent left unanswered says."""

    provider: str
    send: Callable[[Payment], Accepted]
    name: str
    no_answer: str
    accepted: Callable[[Payment, Accepted], Payment]


def _prompt_start(
    channel: PromptChannel[Accepted], *, collection_account: CollectionAccount | None, **intent: Unpack[PromptIntent]
) -> Payment:
    """Record the intent of a prompt on the payer's phone (the phone and the amount checked, one intent
    per idempotency key) and send the prompt. The answer is the pending intent; its outcome arrives by
    callback, or by our query when the callback does not come."""
    fields: dict[str, Any] = {**intent}
    phone = fields.pop("phone")
    if message := validators.check_kenyan_phone(phone):
        raise _invalid("phone", message)
    payment, created = _intent_create(
        provider=channel.provider,
        payer_phone=validators.normalize_kenyan_phone(phone),
        collection_account=collection_account,
        **fields,
    )
    if not created:
        return payment
    accepted = _prompt_send(payment, lambda: channel.send(payment), channel=channel.name, no_answer=channel.no_answer)
    return payment if accepted is None else channel.accepted(payment, accepted)


def _prompt_send(payment: Payment, send: Callable[[], Accepted], *, channel: str, no_answer: str) -> Accepted | None:
    """Ask the provider, outside any transaction, to prompt the payer of a new intent; its acceptance.
    No answer in time leaves the intent pending, saying ``no_answer`` (the provider may have sent the
    prompt all the same: its callback or our query finds the intent); a refusal fails the intent."""
    try:
        return send()
    except ProviderTimeout as exc:
        logger.warning("%s for %s got no answer in time: %s", channel, payment.reference, exc)
        Payment.objects.filter(pk=payment.pk, status=Status.PENDING).update(result_desc=no_answer)
        payment.result_desc = no_answer
        return None
    except ProviderError as exc:
        logger.warning("%s for %s failed: %s", channel, payment.reference, exc)
        _intent_fail(payment=payment, reason=str(exc))
        raise _provider_unavailable() from exc


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
    *, collection_account: CollectionAccount | None = None, **intent: Unpack[PromptIntent]
) -> Payment:
    """Record an intent and send the M-Pesa PIN prompt to ``phone``.

    For any purpose: the donations and pledges apps call this with the amount the payer
    chose and the organization's account it goes to (``collection_account``, a connected paybill
    or till); the fee endpoints with the fee from settings and no account (Harambee's paybill).
    The answer is the pending intent; its outcome arrives by callback (or by our query when the
    callback does not come). ``account_reference`` (at most 12 characters, e.g. a pledge code) is
    what the payer's phone shows and is kept on the payment; by default the payment's own reference.
    """
    if intent["purpose"] in GIVING_PURPOSES and collection_account is None:
        # A church's money never goes to the platform's paybill.
        raise ServiceError(
            _("This campaign takes no M-Pesa prompts: please pay as its instructions say."), code="stk_unavailable"
        )
    client = daraja_client_for(collection_account)
    connection = _prompting_connection(collection_account) if collection_account else None
    # No answer in time: the callback finds the intent by phone and amount (_stk_intent_unanswered), or
    # payments_reconcile expires it.
    channel = PromptChannel(
        provider=Payment.Provider.MPESA_STK,
        send=lambda payment: client.stk_push(
            phone=payment.payer_phone,
            amount=payment.amount,
            account_reference=payment.account_reference or payment.reference,
            description=STK_DESCRIPTIONS[Payment.Purpose(payment.purpose)],
            callback_url=stk_callback_url(connection),
        ),
        name="STK Push",
        no_answer=STK_NO_ANSWER,
        accepted=_stk_push_accepted,
    )
    return _prompt_start(channel, collection_account=collection_account, **intent)


@transaction.atomic
def _stk_push_accepted(payment: Payment, accepted: StkPushAccepted) -> Payment:
    """Daraja's ids of an accepted push, which its callback names."""
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
