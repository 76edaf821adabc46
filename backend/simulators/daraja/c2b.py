"""C2B in the local Daraja: URL registration, and a customer paying a paybill or till (Daraja's simulate
and the simulator's own ``c2b/simulate``), confirmed to the registered URLs."""

from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from simulators.daraja.apps import (
    NAIROBI,
    PHONE,
    app_paid_at,
    bad_request,
    daraja_error,
    invalid_token,
    random_digits,
    receipt_number,
    shortcode_request,
    token_app,
    url_problem,
)
from simulators.delivery import deliver_c2b_later
from simulators.models import (
    SimulatedC2BRegistration,
    SimulatedC2BTransaction,
    SimulatedDarajaApp,
)
from simulators.parsing import json_body, whole_amount


@csrf_exempt
@require_POST
def c2b_register_url(request: HttpRequest) -> JsonResponse:
    checked = shortcode_request(request)
    if isinstance(checked, JsonResponse):
        return checked
    app, body = checked
    if body.get("ResponseType") not in ("Completed", "Cancelled"):
        return bad_request("ResponseType")
    for field in ("ConfirmationURL", "ValidationURL"):
        if url_problem(body.get(field)):
            return bad_request(field)
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
            "OriginatorCoversationID": f"{random_digits(5)}-{random_digits(7)}-1",
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
        trans_id=receipt_number(),
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
    app = app_paid_at(paid_to)
    registration = SimulatedC2BRegistration.objects.filter(shortcode=app.shortcode).first() if app else None
    if app is None or registration is None:
        return daraja_error(400, "400.002.02", f"Bad Request - No URLs registered for ShortCode {paid_to}")
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
            "OriginatorCoversationID": f"{random_digits(5)}-{random_digits(7)}-1",
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
        return bad_request("Body")
    amount, msisdn = whole_amount(body.get("Amount")), str(body.get("MSISDN", ""))
    if amount is None:
        return bad_request("Amount")
    if not PHONE.match(msisdn):
        return bad_request("MSISDN")
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
    if (app := token_app(request)) is None:
        return invalid_token()
    body = json_body(request)
    if body is None:
        return bad_request("Body")
    shortcode, msisdn = str(body.get("ShortCode", "")), str(body.get("Msisdn", ""))
    amount = whole_amount(body.get("Amount"))
    if shortcode not in {app.shortcode, app.till_number} - {""}:
        return bad_request("ShortCode")
    if body.get("CommandID") not in C2B_COMMANDS:
        return bad_request("CommandID")
    if amount is None:
        return bad_request("Amount")
    if not PHONE.match(msisdn):
        return bad_request("Msisdn")
    return _c2b_pay(
        paid_to=shortcode,
        amount=amount,
        bill_ref_number=str(body.get("BillRefNumber") or ""),
        msisdn=msisdn,
        first_name="John",
        dropped=False,
    )
