"""The SMS adapter: Africa's Talking's bulk SMS HTTP API, as documented.

``POST {AFRICASTALKING_BASE_URL}/version1/messaging`` with the ``apiKey`` header and the form
fields ``username``, ``to``, ``message`` and (with a registered sender id) ``from``; the answer's
``SMSMessageData.Recipients[].statusCode`` 101 means sent. Locally the base URL points at the
simulator in ``simulators/sms.py``; the real one is https://api.africastalking.com (or
https://api.sandbox.africastalking.com with the username ``sandbox``).
"""

import httpx
from django.conf import settings

SENT = 101
TIMEOUT_SECONDS = 10


class SmsError(Exception):
    """The gateway did not take the message (network, authentication or a refused recipient)."""


def sms_send(*, to: str, message: str) -> str:
    """Send ``message`` to one E.164 number; the gateway's message id, or SmsError."""
    data = {"username": settings.AFRICASTALKING_USERNAME, "to": to, "message": message}
    if settings.SMS_SENDER_ID:
        data["from"] = settings.SMS_SENDER_ID
    try:
        response = httpx.post(
            f"{settings.AFRICASTALKING_BASE_URL}/version1/messaging",
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
    if recipient.get("statusCode") != SENT:
        raise SmsError(f"{recipient.get('statusCode')} {recipient.get('status')}")
    return str(recipient.get("messageId", ""))
