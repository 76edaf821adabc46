"""A local Safaricom Daraja: the sandbox's paths, bodies, answers and error codes, so the real
adapter (payments.providers.daraja) runs unchanged against it.

Beyond Daraja's own endpoints it has two helpers: ``POST c2b/simulate`` plays a customer
paying the paybill, and ``GET phone`` is a virtual phone showing open STK prompts with
Approve and Decline buttons. Credentials are this site's own MPESA_* settings.
"""

import base64
import binascii
import re
import secrets
import string
from datetime import datetime, timedelta
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

from simulators.delivery import deliver_c2b_later, deliver_later
from simulators.models import SimulatedC2BRegistration, SimulatedStkRequest
from simulators.parsing import json_body, whole_amount

NAIROBI = ZoneInfo("Africa/Nairobi")
TOKEN_SALT = "simulators.daraja.access-token"  # noqa: S105 - a signing namespace, not a secret
TOKEN_LIFETIME_SECONDS = 3599
PHONE = re.compile(r"^254[17]\d{8}$")
TRANSACTION_TYPES = {"CustomerPayBillOnline", "CustomerBuyGoodsOnline"}
FORBIDDEN_URL_WORDS = ("mpesa", "safaricom")
# Daraja refuses a Timestamp this far from its own clock (Nairobi time).
TIMESTAMP_TOLERANCE = timedelta(hours=1)

# Test phone numbers choose how an STK Push ends, by their last digits:
STK_SUCCESS = (0, "The service request is processed successfully.")
STK_OUTCOMES_BY_SUFFIX: dict[str, tuple[int, str]] = {
    "1032": (1032, "Request cancelled by user"),  # e.g. 254700001032
    "1037": (1037, "DS timeout user cannot be reached"),  # e.g. 254700001037
    "0001": (1, "The balance is insufficient for the transaction"),  # e.g. 254700000001
}
# The payer pays but no callback is ever sent: only the STK query tells (e.g. 254700009999).
NO_CALLBACK_SUFFIX = "9999"
# Never answered automatically: waits for Approve or Decline on the virtual phone (e.g. 254700000000).
MANUAL_SUFFIX = "0000"
# Every other number (e.g. Safaricom's sandbox test number 254708374149) pays successfully.


def stk_outcome(phone: str) -> tuple[int, str]:
    return next((outcome for suffix, outcome in STK_OUTCOMES_BY_SUFFIX.items() if phone.endswith(suffix)), STK_SUCCESS)


def _random_digits(length: int) -> str:
    return "".join(secrets.choice(string.digits) for _ in range(length))


def _transaction_id() -> str:
    """An M-Pesa receipt number such as 'SLK4Q7T2XZ'."""
    return "S" + "".join(secrets.choice(string.ascii_uppercase + string.digits) for _ in range(9))


def _now_stamp() -> str:
    return timezone.now().astimezone(NAIROBI).strftime("%Y%m%d%H%M%S")


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(
        {"requestId": f"{_random_digits(5)}-{_random_digits(8)}-1", "errorCode": code, "errorMessage": message},
        status=status,
    )


def _bad_request(field: str) -> JsonResponse:
    return _error(400, "400.002.02", f"Bad Request - Invalid {field}")


def _token_valid(request: HttpRequest) -> bool:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme != "Bearer" or not token:
        return False
    try:
        signing.loads(token, salt=TOKEN_SALT, max_age=TOKEN_LIFETIME_SECONDS)
    except signing.BadSignature:
        return False
    return True


def _invalid_token() -> JsonResponse:
    return _error(404, "404.001.03", "Invalid Access Token")


def _security_problem(body: dict[str, Any]) -> str | None:
    """The first invalid one of BusinessShortCode, Timestamp and Password, or None."""
    shortcode, stamp = str(body.get("BusinessShortCode", "")), str(body.get("Timestamp", ""))
    if shortcode != settings.MPESA_SHORTCODE:
        return "BusinessShortCode"
    try:
        sent_at = datetime.strptime(stamp, "%Y%m%d%H%M%S").replace(tzinfo=NAIROBI)
    except ValueError:
        return "Timestamp"
    if abs(timezone.now() - sent_at) > TIMESTAMP_TOLERANCE:
        return "Timestamp"
    expected = base64.b64encode(f"{shortcode}{settings.MPESA_PASSKEY}{stamp}".encode()).decode()
    if not constant_time_compare(str(body.get("Password", "")), expected):
        return "Password"
    return None


def _stk_push_problem(body: dict[str, Any]) -> str | None:
    if problem := _security_problem(body):
        return problem
    if body.get("TransactionType") not in TRANSACTION_TYPES:
        return "TransactionType"
    if whole_amount(body.get("Amount")) is None:
        return "Amount"
    for field in ("PartyA", "PhoneNumber"):
        if not PHONE.match(str(body.get(field, ""))):
            return field
    if str(body.get("PartyB", "")) != settings.MPESA_SHORTCODE:
        return "PartyB"
    if not re.match(r"^https?://[^\s]+$", str(body.get("CallBackURL", ""))):
        return "CallBackURL"
    if not 1 <= len(str(body.get("AccountReference", ""))) <= 12:
        return "AccountReference"
    if not str(body.get("TransactionDesc", "")).strip():
        return "TransactionDesc"
    return None


@csrf_exempt
@require_GET
def oauth_generate(request: HttpRequest) -> JsonResponse:
    if request.GET.get("grant_type") != "client_credentials":
        return _error(400, "400.008.02", "Invalid grant type passed")
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    try:
        key, _, secret = base64.b64decode(encoded, validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        key = secret = ""
    valid = constant_time_compare(key, settings.MPESA_CONSUMER_KEY) and constant_time_compare(
        secret, settings.MPESA_CONSUMER_SECRET
    )
    if scheme != "Basic" or not valid:
        return _error(400, "400.008.01", "Invalid Authentication passed")
    token = signing.dumps({"key": key, "nonce": secrets.token_hex(4)}, salt=TOKEN_SALT)
    return JsonResponse({"access_token": token, "expires_in": str(TOKEN_LIFETIME_SECONDS)})


@csrf_exempt
@require_POST
def stk_push(request: HttpRequest) -> JsonResponse:
    if not _token_valid(request):
        return _invalid_token()
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    if problem := _stk_push_problem(body):
        return _bad_request(problem)
    prompt = SimulatedStkRequest.objects.create(
        merchant_request_id=f"{_random_digits(5)}-{_random_digits(8)}-1",
        checkout_request_id=f"ws_CO_{_now_stamp()}{_random_digits(10)}",
        shortcode=settings.MPESA_SHORTCODE,
        phone=str(body["PhoneNumber"]),
        amount=whole_amount(body["Amount"]) or 0,
        account_reference=str(body["AccountReference"]),
        description=str(body["TransactionDesc"])[:100],
        callback_url=str(body["CallBackURL"]),
    )
    if not prompt.phone.endswith(MANUAL_SUFFIX):
        # The payer "answers" after a delay; the answer is made by a request to ourselves.
        auto_url = request.build_absolute_uri(reverse("simulators:daraja-stk-auto", args=[prompt.checkout_request_id]))
        deliver_later(auto_url, b"{}", delay=settings.SIMULATOR_CALLBACK_DELAY_SECONDS)
    accepted = "Success. Request accepted for processing"
    return JsonResponse(
        {
            "MerchantRequestID": prompt.merchant_request_id,
            "CheckoutRequestID": prompt.checkout_request_id,
            "ResponseCode": "0",
            "ResponseDescription": accepted,
            "CustomerMessage": accepted,
        }
    )


def stk_callback_body(prompt: SimulatedStkRequest) -> dict[str, Any]:
    callback: dict[str, Any] = {
        "MerchantRequestID": prompt.merchant_request_id,
        "CheckoutRequestID": prompt.checkout_request_id,
        "ResultCode": prompt.result_code,
        "ResultDesc": prompt.result_desc,
    }
    if prompt.result_code == 0:
        answered_at = (prompt.answered_at or timezone.now()).astimezone(NAIROBI)
        callback["CallbackMetadata"] = {
            "Item": [
                {"Name": "Amount", "Value": float(prompt.amount)},
                {"Name": "MpesaReceiptNumber", "Value": prompt.mpesa_receipt},
                {"Name": "Balance"},
                {"Name": "TransactionDate", "Value": int(answered_at.strftime("%Y%m%d%H%M%S"))},
                {"Name": "PhoneNumber", "Value": int(prompt.phone)},
            ]
        }
    return {"Body": {"stkCallback": callback}}


def _answer(prompt: SimulatedStkRequest, outcome: tuple[int, str]) -> bool:
    """Record the payer's answer unless there already is one; then send the callback."""
    code, description = outcome
    answered = SimulatedStkRequest.objects.filter(pk=prompt.pk, result_code__isnull=True).update(
        result_code=code,
        result_desc=description,
        mpesa_receipt=_transaction_id() if code == 0 else "",
        answered_at=timezone.now(),
    )
    if not answered:
        return False
    prompt.refresh_from_db()
    if not prompt.phone.endswith(NO_CALLBACK_SUFFIX):
        content = JsonResponse(stk_callback_body(prompt)).content
        deliver_later(prompt.callback_url, content, delay=0)
    return True


@csrf_exempt
@require_POST
def stk_auto_answer(request: HttpRequest, checkout_request_id: str) -> HttpResponse:
    prompt = get_object_or_404(SimulatedStkRequest, checkout_request_id=checkout_request_id)
    _answer(prompt, stk_outcome(prompt.phone))
    return HttpResponse(status=204)


@csrf_exempt
@require_POST
def stk_query(request: HttpRequest) -> JsonResponse:
    if not _token_valid(request):
        return _invalid_token()
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    if problem := _security_problem(body):
        return _bad_request(problem)
    prompt = SimulatedStkRequest.objects.filter(checkout_request_id=str(body.get("CheckoutRequestID", ""))).first()
    if prompt is None:
        return _bad_request("CheckoutRequestID")
    if prompt.result_code is None:
        return _error(500, "500.001.1001", "The transaction is being processed")
    return JsonResponse(
        {
            "ResponseCode": "0",
            "ResponseDescription": "The service request has been accepted successsfully",
            "MerchantRequestID": prompt.merchant_request_id,
            "CheckoutRequestID": prompt.checkout_request_id,
            "ResultCode": str(prompt.result_code),
            "ResultDesc": prompt.result_desc,
        }
    )


def _url_problem(url: Any) -> bool:
    text = str(url or "")
    return not re.match(r"^https?://[^\s]+$", text) or any(word in text.lower() for word in FORBIDDEN_URL_WORDS)


@csrf_exempt
@require_POST
def c2b_register_url(request: HttpRequest) -> JsonResponse:
    if not _token_valid(request):
        return _invalid_token()
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    if str(body.get("ShortCode", "")) != settings.MPESA_SHORTCODE:
        return _bad_request("ShortCode")
    if body.get("ResponseType") not in ("Completed", "Cancelled"):
        return _bad_request("ResponseType")
    for field in ("ConfirmationURL", "ValidationURL"):
        if _url_problem(body.get(field)):
            return _bad_request(field)
    SimulatedC2BRegistration.objects.update_or_create(
        shortcode=settings.MPESA_SHORTCODE,
        defaults={
            "response_type": body["ResponseType"],
            "confirmation_url": body["ConfirmationURL"],
            "validation_url": body["ValidationURL"],
        },
    )
    return JsonResponse(
        {
            "OriginatorCoversationID": f"{_random_digits(5)}-{_random_digits(7)}-1",
            "ResponseCode": "0",
            "ResponseDescription": "Success",
        }
    )


@csrf_exempt
@require_POST
def c2b_simulate(request: HttpRequest) -> JsonResponse:
    """Not Daraja: a customer pays the paybill ``{"BillRefNumber", "Amount", "MSISDN"}``. The
    registered validation URL is asked, then the confirmation posted, after the usual delay."""
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    amount, msisdn = whole_amount(body.get("Amount")), str(body.get("MSISDN", ""))
    if amount is None:
        return _bad_request("Amount")
    if not PHONE.match(msisdn):
        return _bad_request("MSISDN")
    shortcode = str(body.get("ShortCode") or settings.MPESA_SHORTCODE)
    registration = SimulatedC2BRegistration.objects.filter(shortcode=shortcode).first()
    if registration is None:
        return _error(400, "400.002.02", f"Bad Request - No URLs registered for ShortCode {shortcode}")
    trans_id = _transaction_id()
    notification = {
        "TransactionType": "Pay Bill",
        "TransID": trans_id,
        "TransTime": _now_stamp(),
        "TransAmount": f"{amount}.00",
        "BusinessShortCode": shortcode,
        "BillRefNumber": str(body.get("BillRefNumber", "")),
        "InvoiceNumber": "",
        "OrgAccountBalance": "",
        "ThirdPartyTransID": "",
        # Safaricom masks the payer's number in C2B notifications.
        "MSISDN": f"{msisdn[:4]} ***** {msisdn[-3:]}",
        "FirstName": str(body.get("FirstName", "John")),
        "MiddleName": "",
        "LastName": "",
    }
    deliver_c2b_later(
        validation_url=registration.validation_url,
        confirmation_url=registration.confirmation_url,
        body=notification,
        response_type=registration.response_type,
        delay=settings.SIMULATOR_CALLBACK_DELAY_SECONDS,
    )
    return JsonResponse(
        {
            "OriginatorCoversationID": f"{_random_digits(5)}-{_random_digits(7)}-1",
            "ResponseCode": "0",
            "ResponseDescription": "Accept the service request successfully.",
            "TransID": trans_id,
        }
    )


@require_GET
def phone(request: HttpRequest) -> HttpResponse:
    """The virtual phone: open prompts with Approve and Decline, and the latest answers."""
    return render(
        request,
        "simulators/phone.html",
        {
            "open_prompts": SimulatedStkRequest.objects.filter(result_code__isnull=True)[:20],
            "answered_prompts": SimulatedStkRequest.objects.filter(result_code__isnull=False)[:10],
            "delay": settings.SIMULATOR_CALLBACK_DELAY_SECONDS,
            "outcomes": STK_OUTCOMES_BY_SUFFIX,
            "no_callback_suffix": NO_CALLBACK_SUFFIX,
            "manual_suffix": MANUAL_SUFFIX,
        },
    )


@require_POST
def phone_answer(request: HttpRequest, checkout_request_id: str) -> HttpResponse:
    prompt = get_object_or_404(SimulatedStkRequest, checkout_request_id=checkout_request_id)
    approve = request.POST.get("action") == "approve"
    _answer(prompt, STK_SUCCESS if approve else STK_OUTCOMES_BY_SUFFIX["1032"])
    return HttpResponseRedirect(reverse("simulators:daraja-phone"))
