"""A local Safaricom Daraja: the sandbox's paths, bodies, answers and error codes, so the real
adapter (payments.providers.daraja) runs unchanged against it.

Beyond Daraja's own endpoints it has two helpers: ``POST c2b/simulate`` plays a customer
paying a paybill or till (and can lose the confirmation, so that only Pull Transactions finds the
payment), and ``GET phone`` is a virtual phone showing open STK prompts with Approve and Decline
buttons.

It serves several Daraja apps, each linked to one shortcode with its own consumer key, secret and
passkey: the platform's (this site's MPESA_* settings) and any an organization made
(``SimulatedDarajaApp``, added with ``daraja_app_register`` or in the admin). A token is good
only for its own app's shortcode.
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

from collection_accounts.selectors import collection_account_for_shortcode
from simulators.delivery import deliver_c2b_later, deliver_later
from simulators.models import (
    SimulatedC2BRegistration,
    SimulatedC2BTransaction,
    SimulatedDarajaApp,
    SimulatedPullRegistration,
    SimulatedStandingOrder,
    SimulatedStkRequest,
)
from simulators.parsing import json_body, whole_amount

NAIROBI = ZoneInfo("Africa/Nairobi")
TOKEN_SALT = "simulators.daraja.access-token"  # noqa: S105 - a signing namespace, not a secret
TOKEN_LIFETIME_SECONDS = 3599
PHONE = re.compile(r"^254[17]\d{8}$")
PAYBILL_ONLINE, BUY_GOODS_ONLINE = "CustomerPayBillOnline", "CustomerBuyGoodsOnline"
FORBIDDEN_URL_WORDS = ("mpesa", "safaricom")
# Daraja refuses a Timestamp this far from its own clock (Nairobi time).
TIMESTAMP_TOLERANCE = timedelta(hours=1)
# Pull Transactions lists only this far back, this many rows an answer.
PULL_WINDOW = timedelta(hours=48)
PULL_PAGE_SIZE = 100
PULL_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"

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


def platform_app() -> SimulatedDarajaApp:
    """The platform's own app, from the settings (never saved)."""
    till = settings.MPESA_TRANSACTION_TYPE == BUY_GOODS_ONLINE
    return SimulatedDarajaApp(
        consumer_key=settings.MPESA_CONSUMER_KEY,
        consumer_secret=settings.MPESA_CONSUMER_SECRET,
        shortcode=settings.MPESA_SHORTCODE,
        passkey=settings.MPESA_PASSKEY,
        till_number=settings.MPESA_SHORTCODE if till else "",
        organization_name="Harambee",
    )


def daraja_app_register(
    *, shortcode: str, consumer_key: str, consumer_secret: str, passkey: str, till_number: str = "", **fields: Any
) -> SimulatedDarajaApp:
    """Give an organization a Daraja app for ``shortcode`` (replacing one it had)."""
    app, _ = SimulatedDarajaApp.objects.update_or_create(
        shortcode=shortcode,
        defaults={
            "consumer_key": consumer_key,
            "consumer_secret": consumer_secret,
            "passkey": passkey,
            "till_number": till_number,
            **fields,
        },
    )
    return app


def _app_by_key(consumer_key: str) -> SimulatedDarajaApp | None:
    platform = platform_app()
    if consumer_key == platform.consumer_key:
        return platform
    return SimulatedDarajaApp.objects.filter(consumer_key=consumer_key).first()


def _app_paid_at(number: str) -> SimulatedDarajaApp | None:
    """The app whose paybill, or till, ``number`` is."""
    platform = platform_app()
    if number in (platform.shortcode, platform.till_number):
        return platform
    return SimulatedDarajaApp.objects.filter(shortcode=number).first() or (
        SimulatedDarajaApp.objects.filter(till_number=number).first() if number else None
    )


def _token_app(request: HttpRequest) -> SimulatedDarajaApp | None:
    """The app a valid bearer token was issued to, or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme != "Bearer" or not token:
        return None
    try:
        issued = signing.loads(token, salt=TOKEN_SALT, max_age=TOKEN_LIFETIME_SECONDS)
    except signing.BadSignature:
        return None
    return _app_by_key(str(issued.get("key", "")))


def _acting_app(app: SimulatedDarajaApp, body: dict[str, Any]) -> SimulatedDarajaApp:
    """The app a prompt or query acts for. Until a connected collection account's own credentials are
    used (``payments.services.daraja_client_for``), the platform's app, with its passkey, may act for
    the paybill or till of an account connected to M-Pesa."""
    shortcode = str(body.get("BusinessShortCode", ""))
    if app.pk is not None or shortcode == app.shortcode:
        return app
    account = collection_account_for_shortcode(shortcode=shortcode)
    if account is None or not account.offers_stk_push:
        return app
    till = account.kind == "till"
    return SimulatedDarajaApp(
        consumer_key=app.consumer_key,
        consumer_secret=app.consumer_secret,
        shortcode=shortcode,
        passkey=app.passkey,
        till_number=account.till_number if till else "",
        organization_name=account.organization.name,
    )


def _invalid_token() -> JsonResponse:
    return _error(404, "404.001.03", "Invalid Access Token")


def _security_refusal(body: dict[str, Any], app: SimulatedDarajaApp) -> JsonResponse | None:
    """Daraja's answer to an invalid BusinessShortCode (not this app's), Timestamp or Password
    (made with another passkey: "Wrong credentials", as Daraja words it), or None."""
    shortcode, stamp = str(body.get("BusinessShortCode", "")), str(body.get("Timestamp", ""))
    if shortcode != app.shortcode:
        return _bad_request("BusinessShortCode")
    try:
        sent_at = datetime.strptime(stamp, "%Y%m%d%H%M%S").replace(tzinfo=NAIROBI)
    except ValueError:
        return _bad_request("Timestamp")
    if abs(timezone.now() - sent_at) > TIMESTAMP_TOLERANCE:
        return _bad_request("Timestamp")
    expected = base64.b64encode(f"{shortcode}{app.passkey}{stamp}".encode()).decode()
    if not constant_time_compare(str(body.get("Password", "")), expected):
        return _error(500, "500.001.1001", "Wrong credentials")
    return None


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
@require_GET
def oauth_generate(request: HttpRequest) -> JsonResponse:
    if request.GET.get("grant_type") != "client_credentials":
        return _error(400, "400.008.02", "Invalid grant type passed")
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    try:
        key, _, secret = base64.b64decode(encoded, validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        key = secret = ""
    app = _app_by_key(key)
    valid = app is not None and constant_time_compare(secret, app.consumer_secret)
    if scheme != "Basic" or not valid:
        return _error(400, "400.008.01", "Invalid Authentication passed")
    token = signing.dumps({"key": key, "nonce": secrets.token_hex(4)}, salt=TOKEN_SALT)
    return JsonResponse({"access_token": token, "expires_in": str(TOKEN_LIFETIME_SECONDS)})


@csrf_exempt
@require_POST
def stk_push(request: HttpRequest) -> JsonResponse:
    if (app := _token_app(request)) is None:
        return _invalid_token()
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    app = _acting_app(app, body)
    if refusal := _security_refusal(body, app):
        return refusal
    if problem := _stk_push_problem(body, app):
        return _bad_request(problem)
    prompt = SimulatedStkRequest.objects.create(
        merchant_request_id=f"{_random_digits(5)}-{_random_digits(8)}-1",
        checkout_request_id=f"ws_CO_{_now_stamp()}{_random_digits(10)}",
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
        mpesa_receipt=_transaction_id() if code == 0 else "",
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
    if (app := _token_app(request)) is None:
        return _invalid_token()
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    app = _acting_app(app, body)
    if refusal := _security_refusal(body, app):
        return refusal
    prompt = SimulatedStkRequest.objects.filter(
        checkout_request_id=str(body.get("CheckoutRequestID", "")), shortcode=app.shortcode
    ).first()
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


def _shortcode_request(request: HttpRequest) -> tuple[SimulatedDarajaApp, dict[str, Any]] | JsonResponse:
    """The app and body of a request about a shortcode (URL or Pull registration, Pull query), or
    Daraja's refusal: no valid token, no JSON, or a ShortCode that is not the token's app's."""
    if (app := _token_app(request)) is None:
        return _invalid_token()
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    if str(body.get("ShortCode", "")) != app.shortcode:
        return _bad_request("ShortCode")
    return app, body


def _url_problem(url: Any) -> bool:
    text = str(url or "")
    return not re.match(r"^https?://[^\s]+$", text) or any(word in text.lower() for word in FORBIDDEN_URL_WORDS)


@csrf_exempt
@require_POST
def c2b_register_url(request: HttpRequest) -> JsonResponse:
    checked = _shortcode_request(request)
    if isinstance(checked, JsonResponse):
        return checked
    app, body = checked
    if body.get("ResponseType") not in ("Completed", "Cancelled"):
        return _bad_request("ResponseType")
    for field in ("ConfirmationURL", "ValidationURL"):
        if _url_problem(body.get(field)):
            return _bad_request(field)
    SimulatedC2BRegistration.objects.update_or_create(
        shortcode=app.shortcode,
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


def c2b_payment_record(
    *,
    app: SimulatedDarajaApp,
    paid_to: str,
    amount: int,
    bill_ref_number: str,
    msisdn: str,
    first_name: str,
    paid_at: datetime,
    confirmation_dropped: bool = False,
) -> tuple[SimulatedC2BTransaction, dict[str, Any]]:
    """A payment to ``app``'s paybill or till (``paid_to``) and the confirmation body Daraja posts
    for it: what a customer paying, and a standing order executing, both make."""
    till = bool(app.till_number) and paid_to == app.till_number
    transaction = SimulatedC2BTransaction.objects.create(
        trans_id=_transaction_id(),
        shortcode=app.shortcode,
        paid_to=paid_to,
        transaction_type="Buy Goods" if till else "Pay Bill",
        amount=amount,
        # A till payer types no account number.
        bill_ref_number="" if till else bill_ref_number[:64],
        # Safaricom masks the payer's number in C2B notifications.
        msisdn=f"{msisdn[:4]} ***** {msisdn[-3:]}",
        paid_at=paid_at,
        confirmation_dropped=confirmation_dropped,
    )
    notification = {
        "TransactionType": transaction.transaction_type,
        "TransID": transaction.trans_id,
        "TransTime": paid_at.astimezone(NAIROBI).strftime("%Y%m%d%H%M%S"),
        "TransAmount": f"{amount}.00",
        "BusinessShortCode": paid_to,
        "BillRefNumber": transaction.bill_ref_number,
        "InvoiceNumber": "",
        "OrgAccountBalance": "",
        "ThirdPartyTransID": "",
        "MSISDN": transaction.msisdn,
        "FirstName": first_name,
        "MiddleName": "",
        "LastName": "",
    }
    return transaction, notification


def _c2b_pay(
    *, paid_to: str, amount: int, bill_ref_number: str, msisdn: str, first_name: str, dropped: bool
) -> JsonResponse:
    """A customer pays ``paid_to``: the registered validation URL is asked, then the confirmation posted,
    after the usual delay (nothing posted when ``dropped``: only Pull Transactions lists it)."""
    app = _app_paid_at(paid_to)
    registration = SimulatedC2BRegistration.objects.filter(shortcode=app.shortcode).first() if app else None
    if app is None or registration is None:
        return _error(400, "400.002.02", f"Bad Request - No URLs registered for ShortCode {paid_to}")
    transaction, notification = c2b_payment_record(
        app=app,
        paid_to=paid_to,
        amount=amount,
        bill_ref_number=bill_ref_number,
        msisdn=msisdn,
        first_name=first_name,
        paid_at=timezone.now(),
        confirmation_dropped=dropped,
    )
    if not dropped:
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
            "TransID": transaction.trans_id,
        }
    )


@csrf_exempt
@require_POST
def c2b_simulate(request: HttpRequest) -> JsonResponse:
    """Not Daraja: a customer pays a paybill or till, ``{"ShortCode", "BillRefNumber", "Amount",
    "MSISDN"}`` (ShortCode: the paybill or till number, by default the platform's). With
    ``"DropConfirmation": true`` nothing is posted, as when Safaricom never delivers one, and only
    Pull Transactions lists the payment."""
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    amount, msisdn = whole_amount(body.get("Amount")), str(body.get("MSISDN", ""))
    if amount is None:
        return _bad_request("Amount")
    if not PHONE.match(msisdn):
        return _bad_request("MSISDN")
    return _c2b_pay(
        paid_to=str(body.get("ShortCode") or settings.MPESA_SHORTCODE),
        amount=amount,
        bill_ref_number=str(body.get("BillRefNumber", "")),
        msisdn=msisdn,
        first_name=str(body.get("FirstName", "John")),
        dropped=body.get("DropConfirmation") is True,
    )


C2B_COMMANDS = {"CustomerPayBillOnline", "CustomerBuyGoodsOnline"}


@csrf_exempt
@require_POST
def c2b_simulate_daraja(request: HttpRequest) -> JsonResponse:
    """Daraja's sandbox C2B simulate, at ``/mpesa/c2b/v2/simulate`` (its current documentation) and
    ``/mpesa/c2b/v1/simulate`` (older SDKs): with the app's token, ``{"ShortCode", "CommandID", "Amount",
    "Msisdn", "BillRefNumber"}``, ShortCode the app's paybill or till; then as ``c2b_simulate``."""
    if (app := _token_app(request)) is None:
        return _invalid_token()
    body = json_body(request)
    if body is None:
        return _bad_request("Body")
    shortcode, msisdn = str(body.get("ShortCode", "")), str(body.get("Msisdn", ""))
    amount = whole_amount(body.get("Amount"))
    if shortcode not in {app.shortcode, app.till_number} - {""}:
        return _bad_request("ShortCode")
    if body.get("CommandID") not in C2B_COMMANDS:
        return _bad_request("CommandID")
    if amount is None:
        return _bad_request("Amount")
    if not PHONE.match(msisdn):
        return _bad_request("Msisdn")
    return _c2b_pay(
        paid_to=shortcode,
        amount=amount,
        bill_ref_number=str(body.get("BillRefNumber") or ""),
        msisdn=msisdn,
        first_name="John",
        dropped=False,
    )


@csrf_exempt
@require_POST
def pull_register(request: HttpRequest) -> JsonResponse:
    """Pull Transactions registration: once per shortcode (``1000``), again answered ``1001``."""
    checked = _shortcode_request(request)
    if isinstance(checked, JsonResponse):
        return checked
    app, body = checked
    if body.get("RequestType") != "Pull":
        return _bad_request("RequestType")
    if not PHONE.match(str(body.get("NominatedNumber", ""))):
        return _bad_request("NominatedNumber")
    if _url_problem(body.get("CallBackURL")):
        return _bad_request("CallBackURL")
    _, created = SimulatedPullRegistration.objects.get_or_create(
        shortcode=app.shortcode,
        defaults={"nominated_number": body["NominatedNumber"], "callback_url": body["CallBackURL"]},
    )
    return JsonResponse(
        {
            "ResponseRefID": f"{_random_digits(5)}-{_random_digits(7)}-1",
            "ResponseStatus": "1000" if created else "1001",
            "ShortCode": app.shortcode,
            "ResponseDescription": "Shortcode registered successfully" if created else "Shortcode already registered",
        }
    )


def _pull_date(value: Any) -> datetime | None:
    try:
        return datetime.strptime(str(value), PULL_DATE_FORMAT).replace(tzinfo=NAIROBI)
    except ValueError:
        return None


PULL_TYPES = {"Buy Goods": "c2b-buy-goods-debit", "Pay Bill Online": "c2b-pay-bill-online-debit"}


def _pulled(transaction: SimulatedC2BTransaction, organization_name: str) -> dict[str, Any]:
    return {
        "transactionId": transaction.trans_id,
        "trxDate": transaction.paid_at.astimezone(NAIROBI).replace(microsecond=0).isoformat(),
        "msisdn": transaction.msisdn,
        "sender": "",
        "transactiontype": PULL_TYPES.get(transaction.transaction_type, "c2b-pay-bill-debit"),
        "billreference": transaction.bill_ref_number,
        "amount": f"{transaction.amount}.0",
        "organizationname": organization_name,
    }


@csrf_exempt
@require_POST
def pull_query(request: HttpRequest) -> JsonResponse:
    """The C2B payments of a registered shortcode between StartDate and EndDate (Nairobi time),
    ``PULL_PAGE_SIZE`` rows from OffSetValue; nothing older than 48 hours is kept."""
    checked = _shortcode_request(request)
    if isinstance(checked, JsonResponse):
        return checked
    app, body = checked
    if not SimulatedPullRegistration.objects.filter(shortcode=app.shortcode).exists():
        return _error(400, "400.002.02", "Bad Request - ShortCode not registered for Pull Transactions")
    start, end = _pull_date(body.get("StartDate")), _pull_date(body.get("EndDate"))
    if start is None:
        return _bad_request("StartDate")
    if end is None or end < start:
        return _bad_request("EndDate")
    offset = str(body.get("OffSetValue", ""))
    if not offset.isdigit():
        return _bad_request("OffSetValue")
    transactions = SimulatedC2BTransaction.objects.filter(
        shortcode=app.shortcode, paid_at__gte=max(start, timezone.now() - PULL_WINDOW), paid_at__lte=end
    )[int(offset) : int(offset) + PULL_PAGE_SIZE]
    reference = f"{_random_digits(5)}-{_random_digits(7)}-1"
    if not transactions:
        return JsonResponse(
            {
                "ResponseRefID": reference,
                "ResponseCode": "1001",
                "ResponseMessage": "No transactions found",
                "Response": [],
            }
        )
    rows = [_pulled(transaction, app.organization_name) for transaction in transactions]
    # As in Safaricom's examples: the list of transactions inside a list.
    return JsonResponse(
        {"ResponseRefID": reference, "ResponseCode": "1000", "ResponseMessage": "Success", "Response": [rows]}
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
