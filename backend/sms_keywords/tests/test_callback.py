"""The inbound SMS callback: the gateway's token, its form fields, one answer per message id."""

import pytest
from django.test import Client

from notifications.models import NotificationLog
from pledges.models import Pledge
from sms_keywords.models import InboundSms

pytestmark = pytest.mark.django_db


def test_a_text_is_recorded_and_answered_with_200(phone, django_assert_max_num_queries):
    with django_assert_max_num_queries(15):
        assert phone.deliver("HELP") == (200, "OK")

    reply = phone.replies().get().body

    assert reply.startswith("To pledge, text PLEDGE, the campaign number and the amount")
    message = InboundSms.objects.get()
    assert (message.sender, message.shortcode, message.text, message.outcome) == (
        "+254711000345",
        "22384",
        "HELP",
        InboundSms.Outcome.HELP,
    )
    assert message.reply is not None and message.reply.body == reply


def test_a_retried_delivery_does_nothing_twice(phone, campaign):
    first = phone.deliver(f"PLEDGE {campaign.pk} 5000", message_id="ATXid_same")
    again = phone.deliver(f"PLEDGE {campaign.pk} 5000", message_id="ATXid_same")

    assert first == again == (200, "OK")
    assert Pledge.objects.count() == 1
    message = InboundSms.objects.get()
    assert (message.deliveries, message.outcome, message.pledge) == (
        2,
        InboundSms.Outcome.PLEDGED,
        Pledge.objects.get(),
    )


def test_a_retried_help_is_answered_once(phone):
    phone.deliver("HELP", message_id="ATXid_help")
    phone.deliver("HELP", message_id="ATXid_help")

    assert phone.replies().count() == 1


def test_a_wrong_token_is_not_found_and_changes_nothing(phone):
    assert phone.deliver("HELP", token="wrong-token")[0] == 404
    assert not InboundSms.objects.exists()
    assert not NotificationLog.objects.exists()


def test_a_text_without_id_or_sender_is_refused(client, settings):
    url = f"/api/sms/inbound/{settings.AFRICASTALKING_CALLBACK_TOKEN}"

    assert client.post(url, {"from": "+254711000345", "text": "HELP"}, REMOTE_ADDR="127.0.0.22").status_code == 400
    assert client.post(url, {"id": "ATXid_1", "text": "HELP"}, REMOTE_ADDR="127.0.0.22").status_code == 400
    assert not InboundSms.objects.exists()


def test_a_foreign_number_is_recorded_and_not_answered(make_phone):
    phone = make_phone(number="+447700900123")

    assert phone.text("HELP") == ""
    assert InboundSms.objects.get().outcome == InboundSms.Outcome.NOT_KENYAN


def test_past_the_senders_limit_texts_are_recorded_unanswered(phone, settings):
    settings.RATE_LIMIT_SMS_KEYWORDS = (2, 3600)

    replies = [phone.text("BAL") for _text in range(3)]

    assert [bool(reply) for reply in replies] == [True, True, False]
    assert InboundSms.objects.order_by("-pk")[0].outcome == InboundSms.Outcome.LIMITED


def test_valid_texts_are_never_limited_by_the_gateways_address(make_phone, settings):
    settings.RATE_LIMIT_SMS_KEYWORDS = (1, 3600)

    for number in range(5):
        assert make_phone(number=f"+25471100010{number}", address="127.0.0.23").text("HELP")


def test_the_callback_needs_no_csrf_token(settings):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        f"/api/sms/inbound/{settings.AFRICASTALKING_CALLBACK_TOKEN}",
        {"id": "ATXid_csrf", "from": "+254711000345", "text": "HELP"},
        REMOTE_ADDR="127.0.0.24",
    )
    assert response.status_code == 200
