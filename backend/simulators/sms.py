"""A local Africa's Talking SMS gateway: its send endpoint's path, form fields, answer and status
codes, so the real adapter (notifications.sms) runs unchanged against it; the same path stands for
the content API's premium send (``linkId``, ``keyword``, ``bulkSMSMode=0``). Every message taken is
kept in ``SimulatedSms``: the outbox shown at ``GET sms/outbox`` and in the Django admin. Its
delivery reports go to our callback when asked (``POST sms/delivery-reports``, the outbox's button),
as the gateway POSTs them once each phone has answered.

Recipients ending in 0500 are refused with statusCode 500 (InternalServerError), to try retries;
those ending in 0100 and 0102 are taken with 100 (Processed) and 102 (Queued), as the gateway
answers under load; the delivery report of a number ending in 0404 is Failed (AbsentSubscriber).
"""

import re
import secrets

import httpx
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from simulators.models import SimulatedSms
from simulators.ussd import SAFARICOM_NETWORK_CODE

E164 = re.compile(r"^\+\d{9,15}$")
FAILING_SUFFIX = "0500"
ABSENT_SUFFIX = "0404"
ACCEPTED_SUFFIXES = {"0100": (100, "Processed"), "0102": (102, "Queued")}
COST = "KES 0.8000"


def _outcome(number: str) -> tuple[int, str]:
    if not E164.match(number):
        return 403, "InvalidPhoneNumber"
    if number.endswith(FAILING_SUFFIX):
        return 500, "InternalServerError"
    return ACCEPTED_SUFFIXES.get(number[-4:], (101, "Success"))


@csrf_exempt
@require_POST
def send(request: HttpRequest) -> HttpResponse:
    username = request.POST.get("username", "")
    authenticated = constant_time_compare(
        request.headers.get("apiKey", ""), settings.AFRICASTALKING_API_KEY
    ) and constant_time_compare(username, settings.AFRICASTALKING_USERNAME)
    if not authenticated:
        return HttpResponse("The supplied authentication is invalid", status=401, content_type="text/plain")
    message = request.POST.get("message", "")
    numbers = [number.strip() for number in request.POST.get("to", "").split(",") if number.strip()]
    if not message or not numbers:
        return HttpResponse("Missing parameters: to, message", status=400, content_type="text/plain")
    recipients = []
    for number in numbers:
        code, status = _outcome(number)
        taken = code in (100, 101, 102)
        message_id = f"ATXid_{secrets.token_hex(16)}" if taken else "None"
        recipients.append(
            {
                "statusCode": code,
                "number": number,
                "status": status,
                "cost": COST if taken else "0",
                "messageId": message_id,
            }
        )
        if taken:
            SimulatedSms.objects.create(
                message_id=message_id,
                username=username,
                sender_id=request.POST.get("from", ""),
                to=number,
                message=message,
                status_code=code,
                link_id=request.POST.get("linkId", ""),
                keyword=request.POST.get("keyword", ""),
            )
    sent = sum(1 for recipient in recipients if recipient["messageId"] != "None")
    summary = f"Sent to {sent}/{len(recipients)} Total Cost: KES {0.8 * sent:.4f}"
    return JsonResponse({"SMSMessageData": {"Message": summary, "Recipients": recipients}}, status=201)


def _delivery_report_url() -> str:
    path = reverse("api:sms_delivery_report", kwargs={"token": settings.AFRICASTALKING_CALLBACK_TOKEN})
    return f"{settings.SITE_URL}{path}"


def delivery_reports_send() -> int:
    """POST the delivery report of every message not reported yet, as the gateway does: Success, or
    Failed for a phone that is off (numbers ending in 0404). How many our callback answered 200."""
    answered = 0
    for sms in SimulatedSms.objects.filter(delivery_status="").order_by("id"):
        absent = sms.to.endswith(ABSENT_SUFFIX)
        status = "Failed" if absent else "Success"
        try:
            response = httpx.post(
                _delivery_report_url(),
                data={
                    "id": sms.message_id,
                    "status": status,
                    "phoneNumber": sms.to,
                    "networkCode": SAFARICOM_NETWORK_CODE,
                    "failureReason": "AbsentSubscriber" if absent else "",
                    "retryCount": "0",
                },
                timeout=10,
            )
        except httpx.HTTPError:
            continue  # reported again next time, as the gateway retries
        if response.status_code == 200:
            SimulatedSms.objects.filter(pk=sms.pk).update(delivery_status=status)
            answered += 1
    return answered


@csrf_exempt
@require_POST
def delivery_reports(request: HttpRequest) -> HttpResponse:
    delivery_reports_send()
    return HttpResponseRedirect(reverse("simulators:sms-outbox"))


@require_GET
def outbox(request: HttpRequest) -> HttpResponse:
    return render(request, "simulators/sms_outbox.html", {"messages": SimulatedSms.objects.all()[:200]})
