"""STK Push in the local Daraja: the prompt, the payer's answer (by the phone number's last digits, or on
the virtual phone), the callback and the STK query."""

import re
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from simulators.daraja.apps import (
    BUY_GOODS_ONLINE,
    NAIROBI,
    PAYBILL_ONLINE,
    PHONE,
    acting_app,
    bad_request,
    daraja_error,
    invalid_token,
    now_stamp,
    random_digits,
    receipt_number,
    security_refusal,
    token_app,
)
from simulators.delivery import deliver_later
from simulators.models import (
    SimulatedC2BTransaction,
    SimulatedDarajaApp,
    SimulatedStandingOrder,
    SimulatedStkRequest,
)
from simulators.parsing import json_body, whole_amount

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


def _stk_push_problem(body: dict[str, Any], app: SimulatedDarajaApp) -> str | None:
    # A till is paid with Buy Goods to the till number; a paybill with Pay Bill to itself.
    if body.get("TransactionType") != (BUY_GOODS_ONLINE if app.till_number else PAYBILL_ONLINE):
        return "TransactionType"
    if whole_amount(body.get("Amount")) is None:
        return "Amount"
    for field in ("PartyA", "PhoneNumber"):
        if not PHONE.match(str(body.get(field, ""))):
            return field
    if str(body.get("PartyB", "")) != (app.till_number or app.shortcode):
        return "PartyB"
    if not re.match(r"^https?://[^\s]+$", str(body.get("CallBackURL", ""))):
        return "CallBackURL"
    if not 1 <= len(str(body.get("AccountReference", ""))) <= 12:
        return "AccountReference"
    if not str(body.get("TransactionDesc", "")).strip():
        return "TransactionDesc"
    return None


@csrf_exempt
@require_POST
def stk_push(request: HttpRequest) -> JsonResponse:
    if (app := token_app(request)) is None:
        return invalid_token()
    body = json_body(request)
    if body is None:
        return bad_request("Body")
    app = acting_app(app, body)
    if refusal := security_refusal(body, app):
        return refusal
    if problem := _stk_push_problem(body, app):
        return bad_request(problem)
    prompt = SimulatedStkRequest.objects.create(
        merchant_request_id=f"{random_digits(5)}-{random_digits(8)}-1",
        checkout_request_id=f"ws_CO_{now_stamp()}{random_digits(10)}",
        shortcode=app.shortcode,
        party_b=str(body["PartyB"]),
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
        mpesa_receipt=receipt_number() if code == 0 else "",
        answered_at=timezone.now(),
    )
    if not answered:
        return False
    prompt.refresh_from_db()
    if code == 0:
        _prompt_paid_record(prompt)
    if not prompt.phone.endswith(NO_CALLBACK_SUFFIX):
        content = JsonResponse(stk_callback_body(prompt)).content
        deliver_later(prompt.callback_url, content, delay=0)
    return True


def _prompt_paid_record(prompt: SimulatedStkRequest) -> None:
    """A paid prompt is money into the shortcode like any other: the statement and Pull Transactions list
    it with its receipt, time, payer and account reference (no C2B confirmation is posted for it)."""
    SimulatedC2BTransaction.objects.create(
        trans_id=prompt.mpesa_receipt,
        shortcode=prompt.shortcode,
        paid_to=prompt.party_b or prompt.shortcode,
        transaction_type="Pay Bill Online",
        amount=prompt.amount,
        bill_ref_number=prompt.account_reference,
        msisdn=f"{prompt.phone[:4]} ***** {prompt.phone[-3:]}",
        paid_at=prompt.answered_at or timezone.now(),
        confirmation_dropped=True,
    )


@csrf_exempt
@require_POST
def stk_auto_answer(request: HttpRequest, checkout_request_id: str) -> HttpResponse:
    prompt = get_object_or_404(SimulatedStkRequest, checkout_request_id=checkout_request_id)
    _answer(prompt, stk_outcome(prompt.phone))
    return HttpResponse(status=204)


@csrf_exempt
@require_POST
def stk_query(request: HttpRequest) -> JsonResponse:
    if (app := token_app(request)) is None:
        return invalid_token()
    body = json_body(request)
    if body is None:
        return bad_request("Body")
    app = acting_app(app, body)
    if refusal := security_refusal(body, app):
        return refusal
    prompt = SimulatedStkRequest.objects.filter(
        checkout_request_id=str(body.get("CheckoutRequestID", "")), shortcode=app.shortcode
    ).first()
    if prompt is None:
        return bad_request("CheckoutRequestID")
    if prompt.result_code is None:
        return daraja_error(500, "500.001.1001", "The transaction is being processed")
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


@require_GET
def phone(request: HttpRequest) -> HttpResponse:
    """The virtual phone: open prompts with Approve and Decline, and the latest answers."""
    return render(
        request,
        "simulators/phone.html",
        {
            "open_prompts": SimulatedStkRequest.objects.filter(result_code__isnull=True)[:20],
            "open_standing_orders": SimulatedStandingOrder.objects.filter(status="pending")[:20],
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
