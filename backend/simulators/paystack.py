"""A local Paystack: ``subaccount``, ``transaction/initialize``, ``transaction/verify/<reference>``
and a hosted checkout page with Pay and Decline. A transaction initialised with a ``subaccount``
settles to that subaccount's bank account (Paystack's split payments); its verify answer names it.
Paying sends the signed ``charge.success`` webhook (to SIMULATOR_PAYSTACK_WEBHOOK_URL, as
Paystack's dashboard would) after the usual delay, and either button sends the payer back to
``callback_url?trxref=<ref>&reference=<ref>``. Like Paystack, a declined payment sends no webhook. The secret key is this site's own setting.
"""

import hashlib
import hmac
import re
import secrets
import string
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from csp.decorators import csp_replace
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from simulators.delivery import deliver_later
from simulators.models import SimulatedCardTransaction, SimulatedSubaccount
from simulators.parsing import json_body, whole_amount

REFERENCE = re.compile(r"^[A-Za-z0-9.=-]{1,100}$")
# What the simulator takes for a bank code and an account number it could resolve at that bank.
BANK_CODE = re.compile(r"^[A-Za-z0-9]{1,32}$")
BANK_ACCOUNT_NUMBER = re.compile(r"^[0-9]{6,20}$")


def _fail(status: int, message: str) -> JsonResponse:
    return JsonResponse({"status": False, "message": message}, status=status)


def _authorized(request: HttpRequest) -> bool:
    return constant_time_compare(request.headers.get("Authorization", ""), f"Bearer {settings.PAYSTACK_SECRET_KEY}")


def subaccount_data(subaccount: SimulatedSubaccount) -> dict[str, Any]:
    return {
        "id": subaccount.pk,
        "domain": "test",
        "subaccount_code": subaccount.subaccount_code,
        "business_name": subaccount.business_name,
        "settlement_bank": subaccount.settlement_bank,
        "account_number": subaccount.account_number,
        "percentage_charge": float(subaccount.percentage_charge),
        "currency": "KES",
        "active": True,
        "is_verified": False,
        "settlement_schedule": "AUTO",
        "createdAt": subaccount.created_at.isoformat(),
    }


def transaction_data(tx: SimulatedCardTransaction) -> dict[str, Any]:
    return {
        "id": tx.pk,
        "domain": "test",
        "status": tx.status,
        "reference": tx.reference,
        "amount": tx.amount,
        "currency": tx.currency,
        "gateway_response": tx.gateway_response,
        "channel": "card",
        "paid_at": tx.paid_at.isoformat() if tx.paid_at else None,
        "created_at": tx.created_at.isoformat(),
        "metadata": tx.metadata,
        "customer": {"email": tx.email},
        "subaccount": subaccount_data(tx.subaccount) if tx.subaccount else {},
    }


def _percentage(value: Any) -> Decimal | None:
    """A percentage from 0 to 100 given as a number; None for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        percentage = Decimal(str(value))
    except InvalidOperation:
        return None
    return percentage if percentage.is_finite() and 0 <= percentage <= 100 else None


@csrf_exempt
@require_POST
def subaccount_create(request: HttpRequest) -> JsonResponse:
    if not _authorized(request):
        return _fail(401, "Invalid key")
    body = json_body(request)
    if body is None:
        return _fail(400, "Invalid JSON")
    for field in ("business_name", "settlement_bank", "account_number", "percentage_charge"):
        if body.get(field) in (None, ""):
            return _fail(400, f"{field} is required")
    business_name, bank, number = (
        str(body[field]).strip() for field in ("business_name", "settlement_bank", "account_number")
    )
    percentage = _percentage(body["percentage_charge"])
    if percentage is None:
        return _fail(400, "Percentage charge must be a number from 0 to 100")
    if not BANK_CODE.match(bank):
        return _fail(400, "Unknown bank code")
    if not BANK_ACCOUNT_NUMBER.match(number):
        return _fail(400, "Account details are invalid")
    subaccount = SimulatedSubaccount.objects.create(
        subaccount_code="ACCT_" + "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(15)),
        business_name=business_name[:200],
        settlement_bank=bank,
        account_number=number,
        percentage_charge=percentage,
    )
    return JsonResponse({"status": True, "message": "Subaccount created", "data": subaccount_data(subaccount)})


@csrf_exempt
@require_POST
def initialize(request: HttpRequest) -> JsonResponse:
    if not _authorized(request):
        return _fail(401, "Invalid key")
    body = json_body(request)
    if body is None:
        return _fail(400, "Invalid JSON")
    try:
        validate_email(str(body.get("email", "")))
    except ValidationError:
        return _fail(400, "Invalid Email Address Passed")
    amount = whole_amount(body.get("amount"))
    if amount is None:
        return _fail(400, "Invalid Amount Sent")
    reference = str(body.get("reference") or "".join(secrets.choice(string.ascii_letters) for _ in range(16)))
    if not REFERENCE.match(reference):
        return _fail(400, "Invalid transaction reference")
    if SimulatedCardTransaction.objects.filter(reference=reference).exists():
        return _fail(400, "Duplicate Transaction Reference")
    subaccount = None
    if code := body.get("subaccount"):
        subaccount = SimulatedSubaccount.objects.filter(subaccount_code=str(code)).first()
        if subaccount is None:
            return _fail(400, "Subaccount not found")
    metadata = body.get("metadata")
    tx = SimulatedCardTransaction.objects.create(
        reference=reference,
        access_code="".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(15)),
        email=str(body["email"]),
        amount=amount,
        currency=str(body.get("currency") or "KES"),
        callback_url=str(body.get("callback_url") or ""),
        metadata=metadata if isinstance(metadata, dict) else {},
        subaccount=subaccount,
    )
    checkout_url = request.build_absolute_uri(reverse("simulators:paystack-checkout", args=[tx.access_code]))
    return JsonResponse(
        {
            "status": True,
            "message": "Authorization URL created",
            "data": {"authorization_url": checkout_url, "access_code": tx.access_code, "reference": tx.reference},
        }
    )


@require_GET
def verify(request: HttpRequest, reference: str) -> JsonResponse:
    if not _authorized(request):
        return _fail(401, "Invalid key")
    tx = SimulatedCardTransaction.objects.select_related("subaccount").filter(reference=reference).first()
    if tx is None:
        return _fail(400, "Transaction reference not found")
    return JsonResponse({"status": True, "message": "Verification successful", "data": transaction_data(tx)})


def _send_webhook(tx: SimulatedCardTransaction) -> None:
    content = JsonResponse({"event": "charge.success", "data": transaction_data(tx)}).content
    signature = hmac.new(settings.PAYSTACK_SECRET_KEY.encode(), content, hashlib.sha512).hexdigest()
    deliver_later(
        settings.SIMULATOR_PAYSTACK_WEBHOOK_URL,
        content,
        delay=settings.SIMULATOR_CALLBACK_DELAY_SECONDS,
        headers={"x-paystack-signature": signature},
    )


def _back_to_merchant(tx: SimulatedCardTransaction) -> str:
    parts = urlsplit(tx.callback_url)
    query = "&".join(filter(None, [parts.query, urlencode({"trxref": tx.reference, "reference": tx.reference})]))
    return urlunsplit(parts._replace(query=query))


# The checkout opens inside the merchant's dialog, on this same site.
@xframe_options_sameorigin
@csp_replace({"frame-ancestors": ["'self'"]})  # type: ignore[arg-type]  # typed for views without URL arguments
@require_http_methods(["GET", "POST"])
def checkout(request: HttpRequest, access_code: str) -> HttpResponse:
    tx = get_object_or_404(SimulatedCardTransaction.objects.select_related("subaccount"), access_code=access_code)
    if request.method == "POST":
        if tx.status == "abandoned":
            paid = request.POST.get("action") == "pay"
            tx.status = "success" if paid else "failed"
            tx.gateway_response = "Successful" if paid else "Declined"
            tx.paid_at = timezone.now() if paid else None
            tx.save(update_fields=["status", "gateway_response", "paid_at"])
            if paid:
                _send_webhook(tx)
        if tx.callback_url:
            return HttpResponseRedirect(_back_to_merchant(tx))
    return render(
        request,
        "simulators/checkout.html",
        {"tx": tx, "amount": f"{tx.currency} {tx.amount // 100:,}.{tx.amount % 100:02d}"},
    )
