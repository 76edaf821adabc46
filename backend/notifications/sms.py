"""The SMS adapter: Africa's Talking's messaging HTTP API, as documented and as its official SDK
(africastalking-python, ``SMSService.send`` and ``send_premium``) calls it.

``POST {AFRICASTALKING_BASE_URL}/version1/messaging`` with the ``apiKey`` header and the form
fields ``username``, ``to``, ``message`` and (with a registered sender id) ``from``. A reply to a
text on a premium or on-demand shortcode goes to ``{AFRICASTALKING_CONTENT_BASE_URL}/version1/
messaging`` instead, from the shortcode, with the text's ``linkId``, the shortcode's ``keyword``
(``SMS_PREMIUM_KEYWORD``) and ``bulkSMSMode=0``. The answer's ``SMSMessageData.Recipients[].
statusCode`` is 100 (Processed), 101 (Sent) or 102 (Queued) when the gateway took the message: each
is a success, and a message the gateway took is never sent again (the outbox retries only an
error); the delivery report tells later whether it reached the phone
(``outbox.sms_delivery_report_record``). Locally the base URLs point at the simulator in
``simulators/sms.py``; the real ones are https://api.africastalking.com and
https://content.africastalking.com (https://api.sandbox.africastalking.com with the username ``sandbox``).
"""

import httpx
from django.conf import settings

# Processed, Sent, Queued: the gateway has the message.
ACCEPTED = frozenset({100, 101, 102})
TIMEOUT_SECONDS = 10


class SmsError(Exception):
    """The gateway did not take the message (network, authentication or a refused recipient)."""


def _request(*, to: str, message: str, link_id: str) -> tuple[str, dict[str, str]]:
    """Where to POST the message, and the form: a premium reply when it answers a text (``link_id``)."""
    data = {"username": settings.AFRICASTALKING_USERNAME, "to": to, "message": message}
    if link_id:
        data |= {"from": settings.SMS_SHORTCODE, "linkId": link_id, "bulkSMSMode": "0"}
        if settings.SMS_PREMIUM_KEYWORD:
            data["keyword"] = settings.SMS_PREMIUM_KEYWORD
        return f"{settings.AFRICASTALKING_CONTENT_BASE_URL}/version1/messaging", data
    if settings.SMS_SENDER_ID:
        data["from"] = settings.SMS_SENDER_ID
    return f"{settings.AFRICASTALKING_BASE_URL}/version1/messaging", data


def sms_send(*, to: str, message: str, link_id: str = "") -> str:
    """Send ``message`` to one E.164 number (in reply to the text ``link_id``, if any); the gateway's
    message id, or SmsError."""
    url, data = _request(to=to, message=message, link_id=link_id)
    try:
        response = httpx.post(
            url,
            data=data,
            headers={"apiKey": settings.AFRICASTALKING_API_KEY, "Accept": "application/json"},
            timeout=TIMEOUT_SECONDS,
        )
    except httpx.HTTPError as error:
        raise SmsError(f"{type(error).__name__}: {error}") from error
    if response.status_code >= 300:
        raise SmsError(f"HTTP {response.status_code}: {response.text[:200]}")
    try:
        recipients = response.json()["SMSMessageData"]["Recipients"]
    except (ValueError, KeyError, TypeError) as error:
        raise SmsError(f"Unexpected answer: {response.text[:200]}") from error
    if not recipients:
        raise SmsError(f"No recipient accepted: {response.text[:200]}")
    recipient = recipients[0]
    if recipient.get("statusCode") not in ACCEPTED:
        raise SmsError(f"{recipient.get('statusCode')} {recipient.get('status')}")
    return str(recipient.get("messageId", ""))
