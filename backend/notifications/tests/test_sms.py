"""The Africa's Talking adapter over HTTP against the simulator on a live server."""

import httpx
import pytest

from notifications.models import NotificationLog
from notifications.outbox import notification_deliver
from notifications.sms import SmsError, sms_send
from simulators.models import SimulatedSms
from sms_keywords.models import InboundSms

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


@pytest.fixture
def deferring_tasks(settings):
    """A task backend that can defer: a failed send would be retried later."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def queued_sms(to: str, body: str = "Asante!") -> NotificationLog:
    return NotificationLog.objects.create(channel="sms", recipient=to, template="sms/keyword_reply", body=body)


@pytest.mark.parametrize(("number", "status_code"), [("+254711000100", 100), ("+254711000102", 102)])
def test_a_send_the_gateway_answers_processed_or_queued_is_sent_and_never_retried(
    sms_gateway, deferring_tasks, number, status_code
):
    log = notification_deliver(log_id=queued_sms(number).pk)

    sms = SimulatedSms.objects.get()
    assert (log.status, log.attempts, log.error, log.provider_message_id) == ("sent", 1, "", sms.message_id)
    assert sms.status_code == status_code
    # Delivering it again (a task run twice) sends nothing.
    assert notification_deliver(log_id=log.pk).attempts == 1
    assert SimulatedSms.objects.count() == 1


def test_delivery_reports_mark_each_message_delivered_or_not_and_a_later_report_changes_nothing(sms_gateway, settings):
    delivered = notification_deliver(log_id=queued_sms("+254711000345").pk)
    absent = notification_deliver(log_id=queued_sms("+254711000404").pk)

    answer = httpx.post(f"{sms_gateway.url}/simulators/sms/delivery-reports", timeout=10)

    assert answer.status_code == 302
    delivered.refresh_from_db()
    absent.refresh_from_db()
    assert (delivered.status, delivered.error) == ("delivered", "")
    assert (absent.status, absent.error) == ("undelivered", "Failed: AbsentSubscriber")
    late = httpx.post(
        f"{sms_gateway.url}/api/sms/delivery-reports/{settings.AFRICASTALKING_CALLBACK_TOKEN}",
        data={"id": absent.provider_message_id, "status": "Success", "phoneNumber": absent.recipient},
        timeout=10,
    )
    assert late.status_code == 200
    absent.refresh_from_db()
    assert absent.status == "undelivered"


def test_a_delivery_report_with_a_wrong_token_is_not_found_and_changes_nothing(sms_gateway):
    log = notification_deliver(log_id=queued_sms("+254711000345").pk)

    answer = httpx.post(
        f"{sms_gateway.url}/api/sms/delivery-reports/wrong-token",
        data={"id": log.provider_message_id, "status": "Success"},
        headers={"X-Forwarded-For": "127.0.0.61"},
        timeout=10,
    )

    assert answer.status_code == 404
    log.refresh_from_db()
    assert log.status == "sent"


def test_a_reply_to_a_text_on_a_premium_shortcode_carries_its_link_id_and_keyword(sms_gateway, settings, client):
    settings.SMS_PREMIUM_KEYWORD = "HARAMBEE"

    sent = client.post("/simulators/sms/inbound", {"phone": "+254711000345", "text": "BAL"})

    assert client.get(sent["Location"]).context["outcome"] == "Delivered."
    text = InboundSms.objects.get()
    assert text.link_id.startswith("SampleLinkId")
    reply = SimulatedSms.objects.get(to="+254711000345")
    assert (reply.link_id, reply.keyword, reply.sender_id) == (text.link_id, "HARAMBEE", settings.SMS_SHORTCODE)
    assert reply.message.startswith("You have no pledges.")
