"""The inbound SMS callback and the delivery reports: Africa's Talking POSTs each text sent to the shortcode here as form
fields (``from``, ``to``, ``text``, ``date``, ``id``, ``linkId``, ``networkCode``) and wants a quick
200; the answer goes back as an ordinary SMS, sent by the task worker (with the text's ``linkId`` on a
premium shortcode). Each SMS's delivery report (``id``, ``status``, ``phoneNumber``, ``networkCode``,
``failureReason``, ``retryCount``) marks its message in the log delivered or not.

Both verified as the USSD callback is (``ussd.api.gateway_refusal``): the path carries
``AFRICASTALKING_CALLBACK_TOKEN`` (a wrong one is answered 404 and counted against its address), the
gateway's addresses may be listed, and valid texts are never limited per address (every sender comes
through the gateway's few; each number is limited instead). Exempt from the CSRF check
(``API_CSRF_EXEMPT_PREFIXES``) and left out of the OpenAPI schema, as the providers' callbacks are.
"""

from django.http import HttpRequest, HttpResponse
from ninja import Router

from notifications.outbox import sms_delivery_report_record
from sms_keywords.services import inbound_sms_receive
from ussd.api import gateway_refusal

router = Router(tags=["sms"])


@router.post("/sms/inbound/{token}", include_in_schema=False, url_name="sms_inbound")
def sms_inbound(request: HttpRequest, token: str) -> HttpResponse:
    if refusal := gateway_refusal(request, token):
        return refusal
    form = request.POST
    message_id, sender = form.get("id", "").strip(), form.get("from", "").strip()
    if not message_id or not sender:
        return HttpResponse("Missing id or from", status=400, content_type="text/plain; charset=utf-8")
    inbound_sms_receive(
        message_id=message_id,
        sender=sender,
        shortcode=form.get("to", "").strip(),
        text=form.get("text", ""),
        link_id=form.get("linkId", "").strip(),
        network_code=form.get("networkCode", "").strip(),
        sent_at=form.get("date", "").strip(),
    )
    return HttpResponse("OK", content_type="text/plain; charset=utf-8")


@router.post("/sms/delivery-reports/{token}", include_in_schema=False, url_name="sms_delivery_report")
def sms_delivery_report(request: HttpRequest, token: str) -> HttpResponse:
    if refusal := gateway_refusal(request, token):
        return refusal
    form = request.POST
    sms_delivery_report_record(
        message_id=form.get("id", "").strip(),
        status=form.get("status", "").strip(),
        failure_reason=form.get("failureReason", "").strip(),
    )
    return HttpResponse("OK", content_type="text/plain; charset=utf-8")
