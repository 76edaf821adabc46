"""Airtel Money endpoints: an organization's Airtel app credentials (owners and treasurers, under the
two-person rule) and Airtel's collection callback (``/api/payments/callbacks/airtel/{token}``, outside
the OpenAPI schema, exempt from CSRF: Airtel is not a browser). The token in the URL names the account;
any other token is answered 404 and counted against its address."""

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Router
from ninja.security import django_auth

from accounts.auth import signed_in_user
from common.ratelimit import client_ip
from organizations.models import ChangeRequest
from organizations.schemas import ChangeRequestOut
from payments import airtel, selectors
from payments.api import ERRORS, _json_body, _rejection_limited, _too_large, _waiting
from payments.models import AirtelConnection, PaymentEvent
from payments.schemas import AirtelConnectionIn, AirtelConnectionOut

router = Router(tags=["payments"])

AIRTEL_PATH = "/orgs/{organization_id}/collection-accounts/{account_id}/airtel"


def _out(status: dict[str, Any]) -> dict[str, Any]:
    account = status["account"]
    return {
        "account_id": account.pk,
        "merchant_msisdn": account.merchant_msisdn,
        "connected_at": status["connected_at"],
        "credentials_set": status["credentials_set"],
        "callback_signed": status["callback_signed"],
        "callback_url": status["callback_url"],
    }


@router.get(AIRTEL_PATH, response={200: AirtelConnectionOut, **ERRORS}, auth=django_auth)
def airtel_connection_detail(request: HttpRequest, organization_id: int, account_id: int) -> dict[str, Any]:
    """Whether the Airtel Money account's credentials are set, and the callback URL to give Airtel.
    The secrets are never sent back. Owners and treasurers."""
    return _out(
        selectors.airtel_connection_for_manager(
            user=signed_in_user(request), organization_id=organization_id, account_id=account_id
        )
    )


@router.put(AIRTEL_PATH, response={200: AirtelConnectionOut, 202: ChangeRequestOut, **ERRORS}, auth=django_auth)
def airtel_connection_save(
    request: HttpRequest, organization_id: int, account_id: int, payload: AirtelConnectionIn
) -> Any:
    """Set or replace the Airtel app's client id, secret and callback key (write-only; blank keeps the
    stored one). Owners and treasurers; 202 while it waits for another's approval."""
    change = airtel.airtel_connection_save(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id, **payload.dict()
    )
    if isinstance(change, ChangeRequest):
        return _waiting(request, organization_id, change)
    assert isinstance(change, AirtelConnection)
    return _out(selectors.airtel_connection_status(account=change.account, connection=change))


@router.post("/payments/callbacks/airtel/{token}", include_in_schema=False, url_name="payments_airtel_callback")
def airtel_callback(request: HttpRequest, token: str) -> HttpResponse:
    connection = selectors.airtel_connection_for_token(token)
    if connection is None:
        return _rejection_limited(request) or JsonResponse({"detail": "Not Found"}, status=404)
    if refusal := _too_large(request):
        return refusal
    event = airtel.payment_record_airtel_callback(
        body=_json_body(request), remote_addr=client_ip(request), connection=connection
    )
    if event.outcome == PaymentEvent.Outcome.REJECTED_MALFORMED:
        return JsonResponse({"detail": "Malformed request"}, status=400)
    if event.outcome == PaymentEvent.Outcome.REJECTED_SIGNATURE:
        return _rejection_limited(request) or JsonResponse({"detail": "Forbidden"}, status=403)
    return JsonResponse({"status": "OK"})
