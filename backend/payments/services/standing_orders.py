"""M-Pesa Ratiba: standing orders to a connected paybill."""

from collections.abc import Collection
from dataclasses import fields
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from common.errors import ServiceError
from organizations.approvals import register_change_kind
from organizations.models import ChangeRequest
from payments import selectors
from payments.models import (
    REFERENCE_LENGTH,
    MpesaConnection,
    MpesaStandingOrder,
    Payment,
    PaymentEvent,
)
from payments.providers import MalformedBody, ProviderError, ProviderTimeout, daraja
from payments.providers.daraja import StandingOrderTerms
from payments.services.cards import (
    CARD_SUBACCOUNT_SET,
    MPESA_RATIBA_SET,
    _card_subaccount_apply,
    _card_subaccount_call,
    _card_subaccount_describe,
)
from payments.services.connections import (
    MPESA_CONNECT,
    MPESA_CREDENTIALS_SET,
    ConnectionChange,
    _account_payload,
    _account_words,
    _connection_of,
    _connection_or_pending,
    _mpesa_connect_apply,
    _mpesa_connect_call,
    _mpesa_connect_describe,
    _mpesa_credentials_apply,
    _mpesa_credentials_describe,
    _requested_account,
    _submit,
)
from payments.services.core import Outcome, _daraja_for, logger

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
    return _connection_or_pending(request, account=account, model=MpesaConnection)


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


# What an order keeps of its terms: all but the description, which each prompt words afresh.
ORDER_TERMS = tuple(term.name for term in fields(StandingOrderTerms) if term.name != "description")


def standing_order_record(*, account: CollectionAccount, terms: StandingOrderTerms) -> MpesaStandingOrder:
    """A pending standing order, inside the caller's transaction; ``standing_order_send`` then asks
    the payer for it. Refused (400) unless the account takes standing orders."""
    if selectors.standing_order_connection(account) is None:
        raise ServiceError(
            _("Paying automatically with M-Pesa is not offered for this campaign."), code="standing_order_unavailable"
        )
    return MpesaStandingOrder.objects.create(account=account, **{name: getattr(terms, name) for name in ORDER_TERMS})


def _standing_order_terms(order: MpesaStandingOrder, *, description: str) -> StandingOrderTerms:
    return StandingOrderTerms(**{name: getattr(order, name) for name in ORDER_TERMS}, description=description)


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


def standing_orders_phone_erase(*, account_references: Collection[str] | QuerySet[Any, Any]) -> None:
    """Forget the phone of the standing orders paying these account references (a pledger's data
    erased: the orders stay in the books, whoever set them up is no longer named)."""
    MpesaStandingOrder.objects.filter(account_reference__in=account_references).update(phone="")
