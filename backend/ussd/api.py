"""The USSD callback: Africa's Talking POSTs every step of a session here, as form fields
(``sessionId``, ``serviceCode``, ``phoneNumber``, ``networkCode``, ``text``), and shows the
``text/plain`` answer (``CON …`` to wait for input, ``END …`` to close).

The gateway signs nothing: the path carries ``AFRICASTALKING_CALLBACK_TOKEN`` (a wrong one is
answered 404, and counted against its address like the M-Pesa callbacks'), and
``AFRICASTALKING_USSD_ALLOWED_IPS``, when set, names the only addresses taken. Valid steps are never
limited per address: every caller comes through the gateway's few. Exempt from the CSRF check
(``API_CSRF_EXEMPT_PREFIXES``) and left out of the OpenAPI schema, as the providers' callbacks are.
Also ``GET /api/ussd``: the code to dial, for the campaign pages and the poster.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare
from ninja import Field, Router, Schema

from common.errors import RateLimitedError
from common.ratelimit import client_ip, enforce
from ussd.services import ussd_answer

router = Router(tags=["ussd"])

# A real step is a few hundred bytes; the input the gateway passes on is at most a few dozen answers.
BODY_MAX_BYTES = 4096


class UssdInfoOut(Schema):
    service_code: str = Field(description="The code to dial, e.g. '*384*4242#'.")


@router.get("/ussd", response=UssdInfoOut)
def ussd_info(request: HttpRequest) -> UssdInfoOut:
    """How to give from any phone: dial ``service_code``, choose Pledge or Give now and enter the
    campaign's number (its id). Each campaign's own accounts say how to pay (its page)."""
    return UssdInfoOut(service_code=settings.USSD_SERVICE_CODE)


def _plain(text: str, status: int = 200) -> HttpResponse:
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


def gateway_refusal(request: HttpRequest, token: str) -> HttpResponse | None:
    """The answer to a request that is not the gateway's (wrong token, an address not allowed, too
    large), or None: the USSD and inbound SMS callbacks' one check."""
    if not constant_time_compare(token, settings.AFRICASTALKING_CALLBACK_TOKEN):
        try:
            enforce(
                scope="callback-rejected",
                identifiers=[client_ip(request)],
                limit=settings.RATE_LIMIT_CALLBACK_REJECTED,
            )
        except RateLimitedError:
            return _plain("Too many rejected requests", status=429)
        return _plain("Not Found", status=404)
    if settings.AFRICASTALKING_USSD_ALLOWED_IPS and client_ip(request) not in settings.AFRICASTALKING_USSD_ALLOWED_IPS:
        return _plain("Forbidden", status=403)
    if len(request.body) > BODY_MAX_BYTES:
        return _plain("Request body too large", status=413)
    return None


@router.post("/ussd/callback/{token}", include_in_schema=False, url_name="ussd_callback")
def ussd_callback(request: HttpRequest, token: str) -> HttpResponse:
    if refusal := gateway_refusal(request, token):
        return refusal
    form = request.POST
    session_id, phone = form.get("sessionId", "").strip(), form.get("phoneNumber", "").strip()
    if not session_id or not phone:
        return _plain("Missing sessionId or phoneNumber", status=400)
    return _plain(
        ussd_answer(
            session_id=session_id,
            phone=phone,
            text=form.get("text", ""),
            network_code=form.get("networkCode", "").strip(),
        )
    )
