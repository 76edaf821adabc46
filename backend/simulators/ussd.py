"""A feature phone on the local Africa's Talking USSD gateway: dial the service code, read each
screen, type answers. Each step is sent to the real callback over HTTP as the gateway sends it
(form fields ``sessionId``, ``serviceCode``, ``phoneNumber``, ``networkCode`` and ``text``, the
whole input of the session joined by ``*``), and its ``CON``/``END`` answer shown. Plain HTML
forms: the page needs no script.
"""

import secrets

import httpx
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

DEFAULT_PHONE = "+254711000345"
SAFARICOM_NETWORK_CODE = "63902"


def _callback_url() -> str:
    path = reverse("api:ussd_callback", kwargs={"token": settings.AFRICASTALKING_CALLBACK_TOKEN})
    return f"{settings.SITE_URL}{path}"


def _gateway_step(*, session_id: str, phone: str, text: str) -> tuple[bool, str]:
    """Send one step to the callback: (whether the session goes on, the screen)."""
    try:
        response = httpx.post(
            _callback_url(),
            data={
                "sessionId": session_id,
                "serviceCode": settings.USSD_SERVICE_CODE,
                "phoneNumber": phone,
                "networkCode": SAFARICOM_NETWORK_CODE,
                "text": text,
            },
            timeout=10,
        )
    except httpx.HTTPError as exc:
        return False, f"Connection problem or invalid MMI code ({exc})."
    answer = response.text
    # The gateway closes the session on an HTTP error or an answer that is neither CON nor END.
    if response.status_code != 200 or not answer.startswith(("CON ", "END ")):
        return False, f"Connection problem or invalid MMI code (HTTP {response.status_code})."
    return answer.startswith("CON "), answer[4:]


@require_http_methods(["GET", "POST"])
def phone(request: HttpRequest) -> HttpResponse:
    context: dict[str, object] = {
        "service_code": settings.USSD_SERVICE_CODE,
        "phone": request.POST.get("phone", DEFAULT_PHONE).strip() or DEFAULT_PHONE,
        "callback_url": _callback_url(),
    }
    if request.method == "POST":
        if request.POST.get("action") == "dial":
            session_id, text = f"ATUid_sim_{secrets.token_hex(8)}", ""
        else:
            session_id = request.POST.get("session_id", "")
            typed, answer = request.POST.get("text", ""), request.POST.get("answer", "").strip()
            text = f"{typed}*{answer}" if typed else answer
        going_on, screen = _gateway_step(session_id=session_id, phone=str(context["phone"]), text=text)
        context.update(session_id=session_id, text=text, screen=screen, going_on=going_on)
    return render(request, "simulators/ussd_phone.html", context)
