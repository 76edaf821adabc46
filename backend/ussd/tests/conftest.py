"""The campaigns' viewers and the payment simulators, reused; and a gateway that dials the callback."""

import itertools
from collections.abc import Callable

import pytest
from django.conf import settings
from django.test import Client

from campaigns.tests.conftest import campaign, organizer, organizer_client
from payments.tests.support import providers

__all__ = ["campaign", "organizer", "organizer_client", "providers"]

CALLER = "+254711000345"
_sessions = itertools.count(1)


class Gateway:
    """Africa's Talking as it calls the callback: form fields, the whole input joined by '*'."""

    def __init__(
        self, client: Client, *, phone: str = CALLER, address: str = "127.0.0.20", network: str = "63902"
    ) -> None:
        self.client, self.phone, self.address, self.network = client, phone, address, network
        self.session_id = ""

    def dial(self) -> str:
        self.session_id = f"ATUid_test_{next(_sessions)}"
        return self.send("")

    def send(self, text: str, *, token: str | None = None) -> str:
        response = self.client.post(
            f"/api/ussd/callback/{token or settings.AFRICASTALKING_CALLBACK_TOKEN}",
            {
                "sessionId": self.session_id,
                "serviceCode": settings.USSD_SERVICE_CODE,
                "phoneNumber": self.phone,
                "networkCode": self.network,
                "text": text,
            },
            REMOTE_ADDR=self.address,
        )
        assert response.status_code == 200, response.content
        assert response["Content-Type"].startswith("text/plain")
        return response.content.decode()

    def session(self, *answers: str) -> str:
        """A new session answering ``answers`` one step at a time; the last answer."""
        self.dial()
        reply = ""
        for step in range(1, len(answers) + 1):
            reply = self.send("*".join(answers[:step]))
        return reply


@pytest.fixture
def make_gateway(db: None) -> Callable[..., Gateway]:
    def make(**kwargs: str) -> Gateway:
        return Gateway(Client(), **kwargs)

    return make


@pytest.fixture
def gateway(make_gateway: Callable[..., Gateway]) -> Gateway:
    return make_gateway()
