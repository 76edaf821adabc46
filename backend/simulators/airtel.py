"""A local Airtel Africa Open API (Airtel Money collections, Kenya): the documented paths, headers,
bodies and answers, so the real adapter (payments.providers.airtel), and a third-party client
(pyairtel, see tests), run unchanged against it.

- ``POST auth/oauth2/token``: JSON client credentials; ``{access_token, expires_in, token_type}``.
- ``POST merchant/v1/payments/``: the USSD push; needs the bearer token and ``X-Country``/``X-Currency``
  (KE/KES); ``subscriber.msisdn`` without the country code; ``transaction.id`` unique per app.
- ``GET standard/v1/payments/{id}``: the enquiry; ``data.transaction.status`` TIP until answered, then
  TS or TF (with ``airtel_money_id``).
- The callback goes to the app's URL (set in Airtel's portal: here ``SimulatedAirtelApp.callback_url``),
  ``{transaction{id, message, status_code, airtel_money_id}}``, with ``hash`` when the app has a
  callback key.

Helpers: ``GET phone`` shows the open pushes with Approve and Decline; a push to a number ending
0000 waits there, 1032 is declined, 9999 is paid without a callback (only the enquiry tells), any
other is paid after ``SIMULATOR_CALLBACK_DELAY_SECONDS``. ``GET statement/<msisdn>.csv`` is the
merchant's statement, in the columns ``statements`` imports.
"""

import csv
import io
import json
import re
import secrets
import string
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from payments.providers.airtel import callback_hash
from simulators.delivery import deliver_later
from simulators.models import SimulatedAirtelApp, SimulatedAirtelPayment
from simulators.parsing import json_body, whole_amount

NAIROBI = ZoneInfo("Africa/Nairobi")
TOKEN_SALT = "simulators.airtel.access-token"  # noqa: S105 - a signing namespace, not a secret
TOKEN_LIFETIME_SECONDS = 180  # Airtel's tokens last three minutes
MSISDN = re.compile(r"^[17]\d{8}$")  # Kenyan, without the country code
MANUAL_SUFFIX, DECLINE_SUFFIX, NO_CALLBACK_SUFFIX = "0000", "1032", "9999"
PAID = ("TS", "Transaction is successful")
DECLINED = ("TF", "Transaction failed: the subscriber declined or entered a wrong PIN")
# The ESB's codes: the push accepted and in progress; an unknown transaction.
IN_PROGRESS_CODE, NOT_FOUND_CODE = "DP00800001006", "DP00800001010"
STATEMENT_COLUMNS = (
    "Transaction ID",
    "Transaction Date",
    "Sender MSISDN",
    "Sender Name",
    "Transaction Type",
    "Reference",
    "Amount",
    "Status",
)


def airtel_app_register(
    *, client_id: str, client_secret: str, merchant_msisdn: str, callback_url: str = "", callback_key: str = ""
) -> SimulatedAirtelApp:
    app, _ = SimulatedAirtelApp.objects.update_or_create(
        client_id=client_id,
        defaults={
            "client_secret": client_secret,
            "merchant_msisdn": merchant_msisdn[-9:],
            "callback_url": callback_url,
            "callback_key": callback_key,
        },
    )
    return app


def _status(*, code: str, message: str, success: bool, response_code: str) -> dict[str, Any]:
    return {
        "code": code,
        "message": message,
        "result_code": "ESB000010" if success else "ESB000001",
        "response_code": response_code,
        "success": success,
    }


def _refusal(http_status: int, message: str, response_code: str = "DP00800001000") -> JsonResponse:
    return JsonResponse(
        {
            "data": {},
            "status": _status(code=str(http_status), message=message, success=False, response_code=response_code),
        },
        status=http_status,
    )


def _airtel_money_id() -> str:
    """An id such as 'MP261128.1054.A12345' (Airtel Money's own reference)."""
    now = timezone.now().astimezone(NAIROBI)
    tail = "".join(secrets.choice(string.digits) for _ in range(5))
    return f"MP{now:%y%m%d.%H%M}.{secrets.choice(string.ascii_uppercase)}{tail}"


@csrf_exempt
@require_POST
def token(request: HttpRequest) -> JsonResponse:
    body = json_body(request) or {}
    if body.get("grant_type") != "client_credentials":
        return JsonResponse({"error": "unsupported_grant_type"}, status=400)
    app = SimulatedAirtelApp.objects.filter(client_id=str(body.get("client_id", ""))).first()
    if app is None or not constant_time_compare(str(body.get("client_secret", "")), app.client_secret):
        return JsonResponse({"error": "invalid_client", "error_description": "Invalid client credentials"}, status=401)
    access_token = signing.dumps({"client_id": app.client_id, "nonce": secrets.token_hex(4)}, salt=TOKEN_SALT)
    return JsonResponse(
        {"access_token": access_token, "expires_in": str(TOKEN_LIFETIME_SECONDS), "token_type": "bearer"}
    )


def _token_app(request: HttpRequest) -> SimulatedAirtelApp | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    try:
        claims = signing.loads(value, salt=TOKEN_SALT, max_age=TOKEN_LIFETIME_SECONDS)
    except signing.BadSignature:
        return None
    return SimulatedAirtelApp.objects.filter(client_id=claims.get("client_id")).first()


def _market_problem(request: HttpRequest) -> JsonResponse | None:
    if request.headers.get("X-Country") != "KE" or request.headers.get("X-Currency") != "KES":
        return _refusal(400, "X-Country must be KE and X-Currency KES for this merchant")
    return None


def _push_problem(body: dict[str, Any]) -> str | None:
    subscriber, transaction = body.get("subscriber"), body.get("transaction")
    if not isinstance(subscriber, dict) or not isinstance(transaction, dict):
        return "subscriber and transaction are required"
    if not MSISDN.match(str(subscriber.get("msisdn", ""))):
        return "subscriber.msisdn must be the number without the country code"
    if whole_amount(transaction.get("amount")) is None:
        return "transaction.amount must be a positive amount"
    if not str(transaction.get("id", "")).strip() or len(str(transaction["id"])) > 64:
        return "transaction.id is required"
    for block in (subscriber, transaction):
        if block.get("country", "KE") != "KE" or block.get("currency", "KES") != "KES":
            return "country and currency must be KE and KES"
    if not str(body.get("reference", "")).strip():
        return "reference is required"
    return None


@csrf_exempt
@require_POST
def push(request: HttpRequest) -> JsonResponse:
    if (app := _token_app(request)) is None:
        return _refusal(401, "Invalid or expired access token")
    if refusal := _market_problem(request):
        return refusal
    body = json_body(request)
    if body is None:
        return _refusal(400, "The body must be JSON")
    if problem := _push_problem(body):
        return _refusal(400, problem)
    transaction_id = str(body["transaction"]["id"]).strip()
    if SimulatedAirtelPayment.objects.filter(app=app, transaction_id=transaction_id).exists():
        return _refusal(400, "Duplicate transaction id", response_code="DP00800001009")
    payment = SimulatedAirtelPayment.objects.create(
        app=app,
        transaction_id=transaction_id,
        reference=str(body["reference"])[:64],
        msisdn=str(body["subscriber"]["msisdn"]),
        amount=whole_amount(body["transaction"]["amount"]) or 0,
    )
    if not payment.msisdn.endswith(MANUAL_SUFFIX):
        auto_url = request.build_absolute_uri(reverse("simulators:airtel-auto", args=[payment.pk]))
        deliver_later(auto_url, b"{}", delay=settings.SIMULATOR_CALLBACK_DELAY_SECONDS)
    return JsonResponse(
        {
            "data": {"transaction": {"id": transaction_id, "status": "Success."}},
            "status": _status(code="200", message="Success.", success=True, response_code=IN_PROGRESS_CODE),
        }
    )


def callback_body(payment: SimulatedAirtelPayment) -> dict[str, Any]:
    transaction = {
        "id": payment.transaction_id,
        "message": payment.message,
        "status_code": payment.status,
        "airtel_money_id": payment.airtel_money_id,
    }
    body: dict[str, Any] = {"transaction": transaction}
    if payment.app.callback_key:
        body["hash"] = callback_hash(transaction, key=payment.app.callback_key)
    return body


def _answer(payment: SimulatedAirtelPayment, outcome: tuple[str, str]) -> bool:
    status, message = outcome
    answered = SimulatedAirtelPayment.objects.filter(pk=payment.pk, status="TIP").update(
        status=status,
        message=message,
        airtel_money_id=_airtel_money_id() if status == "TS" else "",
        answered_at=timezone.now(),
    )
    if not answered:
        return False
    payment.refresh_from_db()
    if payment.app.callback_url and not payment.msisdn.endswith(NO_CALLBACK_SUFFIX):
        deliver_later(payment.app.callback_url, json.dumps(callback_body(payment)).encode(), delay=0)
    return True


@csrf_exempt
@require_POST
def auto_answer(request: HttpRequest, payment_id: int) -> HttpResponse:
    payment = get_object_or_404(SimulatedAirtelPayment.objects.select_related("app"), pk=payment_id)
    _answer(payment, DECLINED if payment.msisdn.endswith(DECLINE_SUFFIX) else PAID)
    return HttpResponse(status=204)


@require_GET
def enquiry(request: HttpRequest, transaction_id: str) -> JsonResponse:
    if (app := _token_app(request)) is None:
        return _refusal(401, "Invalid or expired access token")
    if refusal := _market_problem(request):
        return refusal
    payment = SimulatedAirtelPayment.objects.filter(app=app, transaction_id=transaction_id).first()
    if payment is None:
        return _refusal(404, "Transaction not found", response_code=NOT_FOUND_CODE)
    return JsonResponse(
        {
            "data": {
                "transaction": {
                    "airtel_money_id": payment.airtel_money_id,
                    "id": payment.transaction_id,
                    "message": payment.message or "Transaction in progress",
                    "status": payment.status,
                }
            },
            "status": _status(code="200", message="SUCCESS", success=True, response_code="DP00800001001"),
        }
    )


@require_GET
def phone(request: HttpRequest) -> HttpResponse:
    """The virtual Airtel phone: open pushes with Approve and Decline, and the latest answers."""
    return render(
        request,
        "simulators/airtel_phone.html",
        {
            "open_payments": SimulatedAirtelPayment.objects.filter(status="TIP").select_related("app")[:20],
            "answered_payments": SimulatedAirtelPayment.objects.exclude(status="TIP")[:10],
            "delay": settings.SIMULATOR_CALLBACK_DELAY_SECONDS,
            "manual_suffix": MANUAL_SUFFIX,
            "decline_suffix": DECLINE_SUFFIX,
            "no_callback_suffix": NO_CALLBACK_SUFFIX,
        },
    )


@require_POST
def phone_answer(request: HttpRequest, payment_id: int) -> HttpResponse:
    payment = get_object_or_404(SimulatedAirtelPayment.objects.select_related("app"), pk=payment_id)
    _answer(payment, PAID if request.POST.get("action") == "approve" else DECLINED)
    return HttpResponseRedirect(reverse("simulators:airtel-phone"))


@require_GET
def statement(request: HttpRequest, msisdn: str) -> HttpResponse:
    """The merchant's statement of paid collections, oldest first, as the portal exports it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(STATEMENT_COLUMNS)
    paid = SimulatedAirtelPayment.objects.filter(app__merchant_msisdn=msisdn[-9:], status="TS").order_by("answered_at")
    for payment in paid:
        at = (payment.answered_at or payment.created_at).astimezone(NAIROBI)
        writer.writerow(
            [
                payment.airtel_money_id,
                f"{at:%d/%m/%Y %H:%M:%S}",
                f"254{payment.msisdn}",
                "AIRTEL CUSTOMER",
                "Merchant Payment",
                payment.reference,
                f"{payment.amount:.2f}",
                "Success",
            ]
        )
    return HttpResponse(out.getvalue(), content_type="text/csv")
