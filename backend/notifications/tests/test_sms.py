"""The Africa's Talking adapter over HTTP against the simulator on a live server."""

import httpx
import pytest

from notifications.sms import SmsError, sms_send
from simulators.models import SimulatedSms

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_message_the_gateway_takes_lands_in_the_outbox_with_its_message_id(sms_gateway, settings, client):
    settings.SMS_SENDER_ID = "HARAMBEE"

    message_id = sms_send(to="+254712345678", message="Habari! Pledge ABC123.")

    sms = SimulatedSms.objects.get()
    assert (sms.message_id, sms.to, sms.message, sms.sender_id) == (
        message_id,
        "+254712345678",
        "Habari! Pledge ABC123.",
        "HARAMBEE",
    )
    assert message_id.startswith("ATXid_")
    outbox = client.get("/simulators/sms/outbox")
    assert "Habari! Pledge ABC123." in outbox.content.decode()


def test_the_simulator_refuses_a_wrong_api_key_as_the_gateway_does(sms_gateway, settings):
    answer = httpx.post(
        f"{settings.AFRICASTALKING_BASE_URL}/version1/messaging",
        data={"username": settings.AFRICASTALKING_USERNAME, "to": "+254712345678", "message": "Hello"},
        headers={"apiKey": "not-the-key", "Accept": "application/json"},
    )

    assert answer.status_code == 401
    assert not SimulatedSms.objects.exists()


@pytest.mark.parametrize(("number", "status"), [("+254700000500", "500 InternalServerError"), ("0712345678", "403")])
def test_a_recipient_the_gateway_refuses_raises_its_status(sms_gateway, number, status):
    with pytest.raises(SmsError, match=status):
        sms_send(to=number, message="Hello")


def test_an_unreachable_gateway_raises(settings):
    settings.AFRICASTALKING_BASE_URL = "http://127.0.0.1:9"

    with pytest.raises(SmsError, match="ConnectError"):
        sms_send(to="+254712345678", message="Hello")
