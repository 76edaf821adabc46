"""Airtel Money: an organization's Airtel Money merchant account takes pledge and gift payments by USSD
push (``providers.airtel``), matched like M-Pesa's PIN prompts (docs/architecture/payment-identity.md).

Identity: a push is ``Payment(provider=airtel)`` whose ``reference`` is the transaction id we send
Airtel; once paid it holds Airtel's own ``airtel_money_id`` in ``mpesa_receipt``, unique among the
organization's live payments, so a callback, an enquiry and a statement row naming it credit once.

Reporters, each under the payment's row lock:

| Reporter | Finds its payment by | Credits |
|---|---|---|
| callback (signed: its ``hash`` checked with the app's callback key) | transaction id, in the account the URL's token names | yes |
| callback (unsigned app) | same | no: the enquiry decides (``tasks.airtel_success_confirm``) |
| enquiry (missed callback; ``payments_reconcile``, a polling client) | transaction id | yes |
| statement row (``payments_record_from_airtel_statement``) | airtel_money_id, else a push still without one (same account, reference, amount) | if nothing did |

No provider call is made inside ``transaction.atomic``: call, then record in a short transaction.
"""

import logging
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, Unpack

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from collection_accounts.models import CollectionAccount
from collection_accounts.services import collection_account_airtel_connected_mark
from common.errors import ServiceError
from common.mobile_networks import airtel_msisdn
from organizations.approvals import register_change_kind
from organizations.models import ChangeRequest
from payments import selectors
from payments.models import AirtelConnection, Payment, PaymentEvent
from payments.providers import MalformedBody, ProviderError
from payments.providers.airtel import (
    AirtelClient,
    AirtelCredentials,
    AirtelResult,
    Enquiry,
    PushAccepted,
    callback_hash_valid,
    parse_callback,
)
from payments.services.connections import _credentials_reencrypt, _credentials_save, _credentials_store
from payments.services.core import (
    GIVING_PURPOSES,
    _answer_record,
    _callback_record,
    _credit,
    _event,
    _flagged_for_a_used_receipt,
    _repeat_record,
)
from payments.services.intents import PromptChannel, PromptIntent, _prompt_start

logger = logging.getLogger(__name__)
Status = Payment.Status
Outcome = PaymentEvent.Outcome
PUSH_NO_ANSWER = "No answer from Airtel in time; waiting for its callback."


def airtel_client_for(account: CollectionAccount) -> AirtelClient:
    """The client of ``account``'s own Airtel app; refused for an account that takes no Airtel push."""
    connection = AirtelConnection.objects.filter(account=account).first()
    if not account.offers_airtel_push or connection is None:
        raise ServiceError(_("This account takes no Airtel Money prompts yet."), code="airtel_unavailable")
    return AirtelClient(
        base_url=settings.AIRTEL_BASE_URL,
        credentials=AirtelCredentials(client_id=connection.client_id, client_secret=connection.client_secret),
    )


# Paying ----------------------------------------------------------------------------------------


def payment_airtel_push_start(*, collection_account: CollectionAccount, **intent: Unpack[PromptIntent]) -> Payment:
    """Record an intent and send the Airtel Money USSD push to ``phone`` (the payer enters their PIN).

    As ``payment_stk_push_start``: the answer is the pending intent; the outcome arrives by callback,
    or by the enquiry when the callback does not come."""
    if intent["purpose"] not in GIVING_PURPOSES:
        raise ServiceError(_("Airtel Money takes only gifts and pledge payments."), code="airtel_unavailable")
    client = airtel_client_for(collection_account)
    # No answer in time: Airtel may have sent the push all the same; its callback or the enquiry finds it by id.
    channel = PromptChannel(
        provider=Payment.Provider.AIRTEL,
        send=lambda payment: client.push(
            msisdn=airtel_msisdn(payment.payer_phone),
            amount=payment.amount,
            transaction_id=payment.reference,
            reference=payment.account_reference or payment.reference,
        ),
        name="Airtel push",
        no_answer=PUSH_NO_ANSWER,
        accepted=_push_accepted,
    )
    return _prompt_start(channel, collection_account=collection_account, **intent)


def _push_accepted(payment: Payment, accepted: PushAccepted) -> Payment:
    Payment.objects.filter(pk=payment.pk).update(result_code=accepted.response_code, result_desc=accepted.message)
    payment.result_code, payment.result_desc = accepted.response_code, accepted.message
    return payment


def _apply_result(payment: Payment, result: AirtelResult) -> str:
    """What a settled callback or enquiry does to a locked payment: one credit, whoever reports first."""
    if not result.settled:
        return Outcome.PENDING
    if payment.status == Status.SUCCEEDED or payment.flagged:
        return _repeat_record(payment, result.airtel_money_id if result.succeeded else "")
    if result.failed:
        if not payment.is_pending:
            return Outcome.DUPLICATE
        payment.status, payment.result_code, payment.result_desc = Status.FAILED, result.status, result.message
        payment.save(update_fields=["status", "result_code", "result_desc"])
        return Outcome.FAILED
    payment.result_code, payment.result_desc = result.status, result.message
    if _flagged_for_a_used_receipt(payment, result.airtel_money_id, receipt_name="Airtel Money id"):
        return Outcome.FLAGGED_MISMATCH
    # An expired intent still credits: the payer paid, late.
    payment.mpesa_receipt = result.airtel_money_id or None
    _credit(payment)
    return Outcome.CREDITED


def payment_record_airtel_callback(*, body: Any, remote_addr: str | None, connection: AirtelConnection) -> PaymentEvent:
    """Airtel's collection callback to ``connection``'s URL. A malformed body, or a wrong ``hash`` where
    the app signs its callbacks, changes nothing but the log. An unsigned success credits nothing by
    itself (anyone holding the URL could send it): the enquiry, asked once this is recorded, decides."""
    provider, kind = Payment.Provider.AIRTEL, PaymentEvent.Kind.AIRTEL_CALLBACK
    record = partial(_event, provider=provider, kind=kind, body=body, remote_addr=remote_addr)
    try:
        result = parse_callback(body)
    except MalformedBody:
        return record(outcome=Outcome.REJECTED_MALFORMED)
    signed = bool(connection.callback_key)
    if signed and not callback_hash_valid(body, key=connection.callback_key):
        return record(outcome=Outcome.REJECTED_SIGNATURE)
    from payments import tasks

    with transaction.atomic():
        payment = (
            Payment.objects.select_for_update()
            .filter(
                provider=provider, reference=result.transaction_id.upper(), collection_account_id=connection.account_id
            )
            .first()
        )
        return _callback_record(
            payment,
            succeeded=result.succeeded,
            vouched=signed,
            confirm=tasks.airtel_success_confirm.enqueue,
            apply=lambda payment: _apply_result(payment, result),
            record=record,
        )


def payment_record_airtel_enquiry(*, payment: Payment, enquiry: Enquiry) -> Payment:
    result = enquiry.result
    matches = result.transaction_id.upper() in ("", payment.reference)
    payment, _outcome = _answer_record(
        payment,
        provider=Payment.Provider.AIRTEL,
        kind=PaymentEvent.Kind.AIRTEL_ENQUIRY,
        body=enquiry.body,
        apply=lambda locked: _apply_result(locked, result) if matches else Outcome.IGNORED_UNKNOWN,
    )
    return payment


def payment_airtel_enquire(*, payment: Payment) -> Payment:
    """Ask Airtel how a push ended, for when its callback never came (or was not signed)."""
    if payment.provider != Payment.Provider.AIRTEL or payment.collection_account is None:
        return payment
    try:
        enquiry = airtel_client_for(payment.collection_account).enquiry(transaction_id=payment.reference)
    except (ProviderError, ServiceError) as exc:
        logger.warning("Airtel enquiry for %s failed: %s", payment.reference, exc)
        return payment
    return payment_record_airtel_enquiry(payment=payment, enquiry=enquiry)


# Statement rows ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AirtelStatementPayment:
    """A credit on an Airtel Money merchant statement."""

    airtel_money_id: str
    amount: int
    paid_at: datetime
    msisdn: str
    reference: str
    name: str = ""
    notify_payer: bool = False


@dataclass(frozen=True)
class AirtelStatementOutcome:
    created: list[Payment]
    found: list[Payment]


def _push_awaiting_id(*, account: CollectionAccount, row: AirtelStatementPayment) -> Payment | None:
    """A push to ``account`` still without Airtel's id, of this amount and reference: the statement names
    it (its callback was lost and nobody asked)."""
    candidates = list(
        Payment.objects.select_for_update()
        .filter(
            provider=Payment.Provider.AIRTEL,
            collection_account=account,
            mpesa_receipt__isnull=True,
            reversed_at__isnull=True,
            amount=row.amount,
            status__in=[Status.PENDING, Status.EXPIRED, Status.SUCCEEDED],
        )
        .filter(account_reference__iexact=row.reference)
        .order_by("created_at")[:2]
    )
    return candidates[0] if len(candidates) == 1 else None


def payments_record_from_airtel_statement(
    *, account: CollectionAccount, rows: list[AirtelStatementPayment], recorded_by: User | None = None
) -> AirtelStatementOutcome:
    """Record an Airtel Money statement's credits to ``account`` inside the caller's transaction: a row
    whose airtel_money_id the organization already holds is evidence only (an event); a row that is a
    push still awaiting its id completes it (credited if nothing credited it yet); any other row is a
    new succeeded payment matched by its reference (a pledge code), as a paybill payment is."""
    created: list[Payment] = []
    found: list[Payment] = []
    held = {
        payment.mpesa_receipt: payment
        for payment in Payment.objects.select_for_update().holding_receipts(
            organization_id=account.organization_id, receipts=[row.airtel_money_id for row in rows]
        )
    }
    for row in rows:
        record = partial(
            _event,
            provider=Payment.Provider.AIRTEL,
            kind=PaymentEvent.Kind.AIRTEL_STATEMENT_ROW,
            body={
                "airtel_money_id": row.airtel_money_id,
                "amount": row.amount,
                "paid_at": row.paid_at.isoformat(),
                "msisdn": row.msisdn,
                "reference": row.reference,
            },
        )
        payment = held.get(row.airtel_money_id) or _push_awaiting_id(account=account, row=row)
        if payment is not None:
            result = AirtelResult(
                transaction_id=payment.reference,
                status="TS",
                message="Airtel Money statement",
                airtel_money_id=row.airtel_money_id,
            )
            record(payment=payment, outcome=_apply_result(payment, result))
            # Completed or confirmed, not made by this import: an undo leaves it alone.
            found.append(payment)
            held[row.airtel_money_id] = payment
            continue
        payment = Payment.objects.create(
            provider=Payment.Provider.AIRTEL,
            purpose=Payment.Purpose.PLEDGE_PAYMENT,
            amount=row.amount,
            payer_phone=validators.normalize_kenyan_phone(row.msisdn)
            if row.msisdn and not validators.check_kenyan_phone(row.msisdn)
            else "",
            collection_account=account,
            account_reference=row.reference[:64],
            mpesa_receipt=row.airtel_money_id,
            received_at=row.paid_at,
            notify_payer=row.notify_payer,
            recorded_by=recorded_by,
            note=row.name[:200],
        )
        _credit(payment)
        record(payment=payment, outcome=Outcome.CREDITED)
        held[row.airtel_money_id] = payment
        created.append(payment)
    return AirtelStatementOutcome(created=created, found=found)


# Credentials, under the two-person rule -------------------------------------------------------------

AIRTEL_CREDENTIALS_SET = "airtel.credentials_set"
AIRTEL_CREDENTIAL_FIELDS = ("client_id", "client_secret", "callback_key")
AirtelConnectionChange = AirtelConnection | ChangeRequest


def _account_words(payload: dict[str, Any]) -> str:
    return _("Airtel Money %(number)s") % {"number": payload["number"]}


@transaction.atomic
def airtel_connection_save(
    *, user: User, organization_id: int, account_id: int, client_id: str, client_secret: str, callback_key: str
) -> AirtelConnectionChange:
    """Ask to set or replace the Airtel app's client id and secret (and the callback key, when the app
    signs its callbacks) of an Airtel Money account, under the two-person rule: answers the pending
    ``ChangeRequest``, or the connection once set. Blank keeps what is stored; a new connection needs
    the id and secret. The values travel encrypted in the request; audited by field name only."""
    account = selectors.airtel_account_for_manager(
        user=user, organization_id=organization_id, account_id=account_id, lock=True
    )
    return _credentials_save(
        user=user,
        account=account,
        model=AirtelConnection,
        kind=AIRTEL_CREDENTIALS_SET,
        values={"client_id": client_id, "client_secret": client_secret, "callback_key": callback_key},
        required=("client_id", "client_secret"),
    )


def _airtel_credentials_apply(request: ChangeRequest) -> None:
    account = _credentials_store(
        request,
        model=AirtelConnection,
        required=("client_id", "client_secret"),
        missing=ServiceError(_("Enter the Airtel client id and secret first."), code="airtel_not_set_up"),
    )
    collection_account_airtel_connected_mark(account_id=account.pk, at=timezone.now())


def _airtel_credentials_describe(request: ChangeRequest) -> str:
    names = {"client_id": _("client id"), "client_secret": _("client secret"), "callback_key": _("callback key")}
    return _("Set the Airtel Money API credentials of %(account)s (%(fields)s).") % {
        "account": _account_words(request.payload),
        "fields": ", ".join(str(names[name]) for name in request.payload["fields"]),
    }


def airtel_pending_credentials_reencrypt() -> int:
    """The Airtel credentials requests' values encrypted again (``rotate_secrets_key``)."""
    return _credentials_reencrypt(AIRTEL_CREDENTIALS_SET)


def register_airtel_change_kinds() -> None:
    """Called by ``PaymentsConfig.ready``."""
    register_change_kind(AIRTEL_CREDENTIALS_SET, apply=_airtel_credentials_apply, describe=_airtel_credentials_describe)
