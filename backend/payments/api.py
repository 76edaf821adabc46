"""Payments API: fee intents and status for the React app, and the providers' callbacks.

Callbacks live under ``/api/payments/callbacks/`` (exempt from the CSRF check: providers are
not browsers) and stay out of the OpenAPI schema. Daraja signs nothing, so its URLs carry a
token: ``MPESA_CALLBACK_TOKEN`` for the platform's shortcode, or a connected account's own
``MpesaConnection.callback_token``, which routes the callback to that account (any other token is
answered 404); they may be limited to ``MPESA_ALLOWED_IPS``. Paystack's webhook is checked against
its signature.
"""

import json
from collections.abc import Callable
from typing import Any, Literal
from urllib.parse import urlencode

from csp.decorators import csp_replace
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.crypto import constant_time_compare
from django.views.decorators.clickjacking import xframe_options_sameorigin
from ninja import Router, Status
from ninja.security import django_auth

from accounts.auth import request_user, signed_in_user
from collection_accounts.models import CollectionAccount
from collection_accounts.schemas import CollectionAccountOut
from common import ratelimit
from common.errors import RateLimitedError
from common.ratelimit import client_ip
from common.schemas import ErrorOut
from organizations.models import ChangeRequest
from organizations.schemas import ChangeRequestOut
from organizations.selectors import membership_of
from payments import selectors, services
from payments.models import MpesaConnection, Payment, PaymentEvent
from payments.providers.paystack import PaystackClient
from payments.schemas import (
    CardSettlementIn,
    CheckoutIn,
    CheckoutOut,
    FeesOut,
    MpesaConnectIn,
    MpesaConnectionIn,
    MpesaConnectionOut,
    MpesaPullOut,
    MpesaRatibaIn,
    PaymentOut,
    PaymentReversalIn,
    PaymentStatusOut,
    StkPushIn,
)

router = Router(tags=["payments"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
DARAJA_ACCEPTED = {"ResultCode": 0, "ResultDesc": "Accepted"}
# The largest callback body taken: a real Daraja or Paystack one is a few KB.
CALLBACK_MAX_BYTES = 64 * 1024


@router.get("/fees", response=FeesOut)
def fees(request: HttpRequest) -> dict[str, int]:
    """What the platform charges, for anyone: stated before every fee's PIN prompt and on How it works."""
    return {
        "campaign_activation_fee": settings.CAMPAIGN_ACTIVATION_FEE_KES,
        "subscription_fee": settings.SUBSCRIPTION_FEE_KES,
        "subscription_period_days": settings.SUBSCRIPTION_PERIOD_DAYS,
    }


@router.post("/payments/stk-push", response={201: PaymentOut, 429: ErrorOut, **ERRORS}, auth=django_auth)
def stk_push(request: HttpRequest, payload: StkPushIn) -> Status[Payment]:
    """Pay a fee by M-Pesa: the payer's phone shows a PIN prompt. Poll the payment for the outcome."""
    payment = services.payment_fee_stk_push_start(
        user=signed_in_user(request), client_ip=client_ip(request), **payload.dict()
    )
    return Status(201, payment)


@router.post("/payments/checkout", response={201: CheckoutOut, **ERRORS}, auth=django_auth)
def checkout(request: HttpRequest, payload: CheckoutIn) -> Status[Payment]:
    """Pay a fee on the hosted card checkout: show ``checkout_url`` in a dialog, then poll the payment."""
    return Status(201, services.payment_fee_checkout_start(user=signed_in_user(request), **payload.dict()))


@router.post("/payments/{reference}/reversal", response={200: PaymentOut, **ERRORS}, auth=django_auth)
def payment_reverse(request: HttpRequest, reference: str, payload: PaymentReversalIn) -> Payment:
    """Reverse a payment recorded by hand (cash, bank, M-Pesa to the organization's number) with a
    reversing entry and a reason: it stops counting towards its pledge or donation. The campaign's
    organizer or an admin (403 for others; 404 for a payment they cannot see)."""
    return services.payment_reverse(reference=reference, user=signed_in_user(request), reason=payload.reason)


@router.get("/organizations", response={200: PaymentStatusOut, **ERRORS}, auth=django_auth)
def organization_payment_status(
    request: HttpRequest, action: Literal["payment-status"], user_email: str
) -> dict[str, bool]:
    """Whether the signed-in user is a subscriber (``has_paid``). Asking about anyone else is 403."""
    return selectors.payment_status_for_email(user=signed_in_user(request), email=user_email)


@router.get("/payments/card/return", include_in_schema=False, url_name="payments_card_return")
@xframe_options_sameorigin
@csp_replace({"frame-ancestors": ["'self'"]})
def card_return(request: HttpRequest, reference: str = "") -> HttpResponse:
    """Where the checkout sends the payer back (inside our dialog): verify, then say how it went."""
    payment = services.payment_confirm_card(reference=reference)
    query = urlencode({"payment": payment.reference})
    return render(
        request,
        "payments/card_return.html",
        {"payment": payment, "continue_url": f"{payment.return_path or '/dashboard'}?{query}"},
    )


@router.get("/payments/{reference}", response={200: PaymentOut, 404: ErrorOut})
def payment_detail(request: HttpRequest, reference: str) -> Payment:
    """A payment's state, for polling. Pending M-Pesa or card intents older than two minutes are
    looked up at the provider first, in case their callback never comes."""
    return services.payment_status_check(reference=reference, user=request_user(request))


# An organization's own M-Pesa (its Daraja app on a paybill or till collection account) -------------

MPESA_PATH = "/orgs/{organization_id}/collection-accounts/{account_id}/mpesa"


def _mpesa_out(connection: MpesaConnection) -> dict[str, Any]:
    return selectors.mpesa_connection_status(account=connection.account, connection=connection)


@router.get(MPESA_PATH, response={200: MpesaConnectionOut, **ERRORS}, auth=django_auth)
def mpesa_connection_detail(request: HttpRequest, organization_id: int, account_id: int) -> dict[str, Any]:
    """Whether the account is connected, when it was registered, tested and pulled, and the URLs Daraja
    calls. The secrets are never sent back: only whether each is set. Owners and treasurers."""
    return selectors.mpesa_connection_for_manager(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id
    )


def _waiting(request: HttpRequest, organization_id: int, change: ChangeRequest) -> Status[ChangeRequestOut]:
    """202: the change waits for another owner's or treasurer's approval (the two-person rule)."""
    membership = membership_of(user=signed_in_user(request), organization_id=organization_id)
    return Status(202, ChangeRequestOut.for_member(change, membership=membership))


def _mpesa_answer(request: HttpRequest, organization_id: int, change: services.ConnectionChange) -> Any:
    """The connection, or 202 with the change waiting for another's approval."""
    if isinstance(change, ChangeRequest):
        return _waiting(request, organization_id, change)
    return _mpesa_out(change)


@router.put(MPESA_PATH, response={200: MpesaConnectionOut, 202: ChangeRequestOut, **ERRORS}, auth=django_auth)
def mpesa_connection_save(
    request: HttpRequest, organization_id: int, account_id: int, payload: MpesaConnectionIn
) -> Any:
    """Set or replace the Daraja consumer key and secret, passkey and nominated number (write-only;
    a blank field keeps the stored one). Owners and treasurers; 202 while it waits for another's
    approval."""
    change = services.mpesa_connection_save(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id, **payload.dict()
    )
    return _mpesa_answer(request, organization_id, change)


@router.post(f"{MPESA_PATH}/test", response={200: MpesaConnectionOut, **ERRORS}, auth=django_auth)
def mpesa_connection_test(request: HttpRequest, organization_id: int, account_id: int) -> dict[str, Any]:
    """Fetch a token and check the shortcode and passkey; registers nothing. Each failure has its own
    code: mpesa_wrong_credentials, mpesa_wrong_shortcode, mpesa_wrong_passkey, provider_unavailable."""
    connection = services.mpesa_connection_test(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id
    )
    return _mpesa_out(connection)


@router.post(
    f"{MPESA_PATH}/connect", response={200: MpesaConnectionOut, 202: ChangeRequestOut, **ERRORS}, auth=django_auth
)
def mpesa_connection_connect(
    request: HttpRequest, organization_id: int, account_id: int, payload: MpesaConnectIn
) -> Any:
    """Register the account's confirmation and validation URLs and Pull Transactions with Daraja, once
    (``reregister``: again). From then on the account offers STK Push. 202 while it waits for
    another's approval."""
    change = services.mpesa_connection_connect(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id, **payload.dict()
    )
    return _mpesa_answer(request, organization_id, change)


@router.post(f"{MPESA_PATH}/pull", response={200: MpesaPullOut, **ERRORS}, auth=django_auth)
def mpesa_pull_now(request: HttpRequest, organization_id: int, account_id: int) -> dict[str, int]:
    """Pull the account's last 48 hours from M-Pesa now and credit what no confirmation brought."""
    return services.mpesa_pull_now(user=signed_in_user(request), organization_id=organization_id, account_id=account_id)


@router.put(
    "/orgs/{organization_id}/collection-accounts/{account_id}/cards",
    response={200: CollectionAccountOut, 202: ChangeRequestOut, **ERRORS},
    auth=django_auth,
)
def card_subaccount_set(
    request: HttpRequest, organization_id: int, account_id: int, payload: CardSettlementIn
) -> CollectionAccount | Status[ChangeRequestOut]:
    """Take card payments into this bank account: Paystack makes a subaccount for it, to which every card
    donation to the organization's campaigns then settles (without one, its campaigns offer no card
    payment). Owners and treasurers; 202 while it waits for another's approval (Paystack is asked
    when it is approved). Codes: not_bank_account, card_account_refused, provider_unavailable."""
    change = services.card_subaccount_set(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id, **payload.dict()
    )
    if isinstance(change, ChangeRequest):
        return _waiting(request, organization_id, change)
    return change


@router.put(
    f"{MPESA_PATH}/ratiba", response={200: MpesaConnectionOut, 202: ChangeRequestOut, **ERRORS}, auth=django_auth
)
def mpesa_ratiba_set(request: HttpRequest, organization_id: int, account_id: int, payload: MpesaRatibaIn) -> Any:
    """Whether Safaricom enabled M-Pesa Ratiba (standing orders) for this connected paybill: only then
    are pledgers with equal-instalment plans offered "Pay automatically with M-Pesa". Owners and
    treasurers; 202 while it waits for another's approval; a till answers 400 (ratiba_paybill_only)."""
    change = services.mpesa_ratiba_set(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id, enabled=payload.enabled
    )
    return _mpesa_answer(request, organization_id, change)


# Provider callbacks ---------------------------------------------------------------------------


def _too_large(request: HttpRequest) -> JsonResponse | None:
    """Providers' callbacks are a few KB: a body over ``CALLBACK_MAX_BYTES`` is refused, unread when
    its Content-Length says so, and never stored."""
    try:
        declared = int(request.headers.get("content-length") or 0)
    except ValueError:
        declared = 0
    if max(declared, 0) > CALLBACK_MAX_BYTES or len(request.body) > CALLBACK_MAX_BYTES:
        return JsonResponse({"detail": "Request body too large"}, status=413)
    return None


def _json_body(request: HttpRequest) -> Any:
    try:
        return json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return {"raw": request.body.decode("utf-8", "replace")[:10_000]}


def _rejection_limited(request: HttpRequest) -> JsonResponse | None:
    """Count a callback without the right token or signature against its address: past
    ``RATE_LIMIT_CALLBACK_REJECTED`` it is answered 429 and nothing more is done. Callbacks that
    pass are never counted, so a flood of forged ones cannot hold up the provider's real ones."""
    try:
        ratelimit.enforce(
            scope="callback-rejected", identifiers=[client_ip(request)], limit=settings.RATE_LIMIT_CALLBACK_REJECTED
        )
    except RateLimitedError as refusal:
        answer = JsonResponse({"detail": "Too many rejected requests"}, status=429)
        answer["Retry-After"] = str(refusal.retry_after)
        return answer
    return None


def _daraja_route(request: HttpRequest, token: str) -> tuple[MpesaConnection | None, JsonResponse | None]:
    """Whose callback this is (None: the platform's), or the refusal to answer with."""
    connection = None
    if not constant_time_compare(token, settings.MPESA_CALLBACK_TOKEN):
        connection = selectors.mpesa_connection_for_token(token)
        if connection is None:
            return None, _rejection_limited(request) or JsonResponse({"detail": "Not Found"}, status=404)
    if settings.MPESA_ALLOWED_IPS and client_ip(request) not in settings.MPESA_ALLOWED_IPS:
        return None, JsonResponse({"detail": "Forbidden"}, status=403)
    return connection, _too_large(request)


def _daraja_answer(event: PaymentEvent) -> JsonResponse:
    if event.outcome == PaymentEvent.Outcome.REJECTED_MALFORMED:
        return JsonResponse({"ResultCode": 1, "ResultDesc": "Malformed request"}, status=400)
    return JsonResponse(DARAJA_ACCEPTED)


def _daraja_callback(
    request: HttpRequest, token: str, record: Callable[..., PaymentEvent], **fields: Any
) -> HttpResponse:
    """A Daraja callback to the URL of ``token`` (``_daraja_route``), recorded by ``record`` (with
    ``fields``) and answered as Daraja expects."""
    connection, refusal = _daraja_route(request, token)
    if refusal:
        return refusal
    return _daraja_answer(
        record(body=_json_body(request), remote_addr=client_ip(request), connection=connection, **fields)
    )


@router.post("/payments/callbacks/stk/{token}", include_in_schema=False, url_name="payments_stk_callback")
def stk_callback(request: HttpRequest, token: str) -> HttpResponse:
    return _daraja_callback(request, token, services.payment_record_stk_callback)


@router.post("/payments/callbacks/c2b/{token}/validation", include_in_schema=False, url_name="payments_c2b_validation")
def c2b_validation(request: HttpRequest, token: str) -> HttpResponse:
    connection, refusal = _daraja_route(request, token)
    if refusal:
        return refusal
    return JsonResponse(
        services.payment_validate_c2b(body=_json_body(request), remote_addr=client_ip(request), connection=connection)
    )


@router.post(
    "/payments/callbacks/c2b/{token}/confirmation", include_in_schema=False, url_name="payments_c2b_confirmation"
)
def c2b_confirmation(request: HttpRequest, token: str) -> HttpResponse:
    return _daraja_callback(request, token, services.payment_record_c2b_confirmation)


@router.post(
    "/payments/callbacks/standing-order/{token}/{reference}",
    include_in_schema=False,
    url_name="payments_standing_order_callback",
)
def standing_order_callback(request: HttpRequest, token: str, reference: str) -> HttpResponse:
    """Ratiba's answer to one standing order: the account's token, then the order's reference."""
    return _daraja_callback(request, token, services.standing_order_record_callback, reference=reference)


@router.post("/payments/callbacks/card", include_in_schema=False, url_name="payments_card_webhook")
def card_webhook(request: HttpRequest) -> HttpResponse:
    if refusal := _too_large(request):
        return refusal
    signature = request.headers.get("x-paystack-signature", "")
    if not PaystackClient.from_settings().signature_is_valid(raw_body=request.body, signature=signature) and (
        refusal := _rejection_limited(request)
    ):
        return refusal
    event = services.payment_record_card_webhook(
        raw_body=request.body, signature=signature, remote_addr=client_ip(request)
    )
    if event.outcome == PaymentEvent.Outcome.REJECTED_SIGNATURE:
        return JsonResponse({"detail": "Invalid signature"}, status=401)
    if event.outcome == PaymentEvent.Outcome.REJECTED_MALFORMED:
        return JsonResponse({"detail": "Malformed request"}, status=400)
    return JsonResponse({"status": "ok"})
