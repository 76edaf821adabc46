"""The campaigns' viewers and the payment simulators, reused; and a phone that texts the shortcode
through the gateway's inbound callback."""

import itertools
from collections.abc import Callable

import pytest
from django.conf import settings
from django.test import Client

from campaigns.tests.conftest import campaign, organizer, organizer_client
from notifications.models import NotificationLog
from payments.tests.support import providers

__all__ = ["campaign", "organizer", "organizer_client", "providers"]

SENDER = "+254711000345"
SHORTCODE = "22384"
_ids = itertools.count(1)


class Phone:
    """Africa's Talking as it delivers a text to the callback: form fields, a fresh ``id`` each."""

    def __init__(self, client: Client, *, number: str = SENDER, address: str = "127.0.0.21") -> None:
        self.client, self.number, self.address = client, number, address

    def deliver(self, text: str, *, message_id: str = "", token: str | None = None) -> tuple[int, str]:
        response = self.client.post(
            f"/api/sms/inbound/{token or settings.AFRICASTALKING_CALLBACK_TOKEN}",
            {
                "from": self.number,
                "to": SHORTCODE,
                "text": text,
                "date": "2026-11-26 10:00:00",
                "id": message_id or f"ATXid_in_{next(_ids)}",
                "linkId": "",
                "networkCode": "63902",
            },
            REMOTE_ADDR=self.address,
        )
        return response.status_code, response.content.decode()

    def text(self, text: str, *, message_id: str = "") -> str:
        """Text the shortcode; the reply texted back (empty when none was)."""
        before = set(self.replies().values_list("pk", flat=True))
        status, body = self.deliver(text, message_id=message_id)
        assert (status, body) == (200, "OK")
        new = self.replies().exclude(pk__in=before)
        assert new.count() <= 1
        reply = new.first()
        return reply.body if reply else ""

    def replies(self):
        return NotificationLog.objects.filter(recipient=self.number, template="sms/keyword_reply").order_by("pk")


@pytest.fixture
def make_phone(db: None) -> Callable[..., Phone]:
    def make(**kwargs: str) -> Phone:
        return Phone(Client(), **kwargs)

    return make


@pytest.fixture
def phone(make_phone: Callable[..., Phone]) -> Phone:
    return make_phone()
