"""A local Africa's Talking SMS gateway: its send endpoint's path, form fields, answer and status
codes, so the real adapter (notifications.sms) runs unchanged against it. Every message is kept
in ``SimulatedSms``: the outbox shown at ``GET sms/outbox`` and in the Django admin.

Recipients ending in 0500 are refused with statusCode 500 (InternalServerError), to try retries.
"""

import re
import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from simulators.models import SimulatedSms

E164 = re.compile(r"^\+\d{9,15}$")
FAILING_SUFFIX = "0500"
COST = "KES 0.8000"


def _outcome(number: str) -> tuple[int, str]:
    if not E164.match(number):
        return 403, "InvalidPhoneNumber"
    if number.endswith(FAILING_SUFFIX):
        return 500, "InternalServerError"
    return 101, "Success"


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
        message_id = f"ATXid_{secrets.token_hex(16)}" if code == 101 else "None"
        recipients.append(
            {
                "statusCode": code,
                "number": number,
                "status": status,
                "cost": COST if code == 101 else "0",
                "messageId": message_id,
            }
        )
        if code == 101:
            SimulatedSms.objects.create(
                message_id=message_id,
                username=username,
                sender_id=request.POST.get("from", ""),
                to=number,
                message=message,
                status_code=code,
            )
    sent = sum(1 for recipient in recipients if recipient["statusCode"] == 101)
    summary = f"Sent to {sent}/{len(recipients)} Total Cost: KES {0.8 * sent:.4f}"
    return JsonResponse({"SMSMessageData": {"Message": summary, "Recipients": recipients}}, status=201)


@require_GET
def outbox(request: HttpRequest) -> HttpResponse:
    return render(request, "simulators/sms_outbox.html", {"messages": SimulatedSms.objects.all()[:200]})
