"""A phone texting the shortcode through the local Africa's Talking gateway: each message is POSTed
to the real inbound SMS callback over HTTP as the gateway sends it (form fields ``from``, ``to``,
``text``, ``date``, ``id``, ``linkId``, ``networkCode``), and the replies texted back to that number
are read from the simulator's outbox (``SimulatedSms``). Plain HTML forms: the page needs no script.
"""

import secrets
from urllib.parse import urlencode

import httpx
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from simulators.models import SimulatedSms
from simulators.ussd import DEFAULT_PHONE, SAFARICOM_NETWORK_CODE

SHOWN_REPLIES = 10


def _callback_url() -> str:
    path = reverse("api:sms_inbound", kwargs={"token": settings.AFRICASTALKING_CALLBACK_TOKEN})
    return f"{settings.SITE_URL}{path}"


def gateway_deliver(*, phone: str, text: str) -> str:
    """Deliver one text to the callback as the gateway would: its outcome, in words."""
    try:
        response = httpx.post(
            _callback_url(),
            data={
                "from": phone,
                "to": settings.SMS_SHORTCODE,
                "text": text,
                "date": timezone.now().strftime("%Y-%m-%d %H:%M:%S"),
                "id": f"ATXid_sim_{secrets.token_hex(12)}",
                # A premium or on-demand shortcode's texts carry one, to be sent back with the reply.
                "linkId": f"SampleLinkId{secrets.token_hex(6)}" if settings.SMS_PREMIUM_KEYWORD else "",
                "networkCode": SAFARICOM_NETWORK_CODE,
            },
            timeout=10,
        )
    except httpx.HTTPError as exc:
        return f"Not delivered ({exc})."
    return "Delivered." if response.status_code == 200 else f"Not delivered (HTTP {response.status_code})."


@require_http_methods(["GET", "POST"])
def inbound(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        phone = request.POST.get("phone", "").strip() or DEFAULT_PHONE
        outcome = gateway_deliver(phone=phone, text=request.POST.get("text", ""))
        # Post/redirect/get: reloading the page to see the reply sends nothing again.
        query = urlencode({"phone": phone, "outcome": outcome})
        return HttpResponseRedirect(f"{reverse('simulators:sms-inbound')}?{query}")
    phone = request.GET.get("phone", "").strip() or DEFAULT_PHONE
    context = {
        "phone": phone,
        "shortcode": settings.SMS_SHORTCODE,
        "callback_url": _callback_url(),
        "outcome": request.GET.get("outcome", ""),
        "replies": SimulatedSms.objects.filter(to=phone)[:SHOWN_REPLIES],
    }
    return render(request, "simulators/sms_inbound.html", context)
