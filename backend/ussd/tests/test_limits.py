"""Who may use the callback, and the limits per phone number."""

from django.test import Client

from pledges.models import Pledge
from pledges.tests.factories import make_pledge
from ussd.models import Session


def test_a_wrong_token_is_not_found_and_answers_nothing(db, settings):
    response = Client().post(
        "/api/ussd/callback/not-the-token",
        {"sessionId": "ATUid_1", "phoneNumber": "+254711000345", "text": ""},
        REMOTE_ADDR="127.0.0.31",
    )

    assert response.status_code == 404
    assert not Session.objects.exists()


def test_addresses_off_the_allow_list_are_refused_when_one_is_set(gateway, settings):
    settings.AFRICASTALKING_USSD_ALLOWED_IPS = ["196.201.214.1"]

    response = gateway.client.post(
        f"/api/ussd/callback/{settings.AFRICASTALKING_CALLBACK_TOKEN}",
        {"sessionId": "ATUid_2", "phoneNumber": "+254711000345", "text": ""},
        REMOTE_ADDR="127.0.0.32",
    )

    assert response.status_code == 403


def test_valid_steps_are_never_limited_per_address(gateway, settings):
    settings.RATE_LIMIT_CALLBACK_REJECTED = (1, 600)
    settings.RATE_LIMIT_PLEDGE = (1, 600)

    for _ in range(5):
        assert gateway.dial().startswith("CON Harambee")


def test_the_callback_needs_no_csrf_token(db, settings):
    response = Client(enforce_csrf_checks=True).post(
        f"/api/ussd/callback/{settings.AFRICASTALKING_CALLBACK_TOKEN}",
        {"sessionId": "ATUid_3", "phoneNumber": "+254711000345", "text": ""},
        REMOTE_ADDR="127.0.0.33",
    )

    assert response.status_code == 200


def test_numbers_outside_kenya_are_turned_away(make_gateway):
    assert make_gateway(phone="+256700000001").dial() == "END Sorry, this service is for Kenyan numbers."


def test_a_session_answers_only_the_number_that_started_it(make_gateway, campaign):
    caller = make_gateway()
    caller.dial()
    other = make_gateway(phone="+254722000999")
    other.session_id = caller.session_id

    assert other.send("3") == "END Sorry, something went wrong. Please dial again."


def test_pledges_per_number_are_limited(gateway, settings, campaign):
    settings.RATE_LIMIT_USSD_PLEDGES = (2, 86400)
    for _ in range(2):
        assert gateway.session("1", str(campaign.pk), "100", "1", "1", "1").startswith("END Thank you!")

    refused = gateway.session("1", str(campaign.pk), "100", "1", "1", "1")

    assert refused == "END You have made many pledges today. Please try again tomorrow."
    assert Pledge.objects.count() == 2


def test_pin_prompts_per_number_are_limited(gateway, settings, campaign):
    # (The prompts themselves are sent on commit, which this test's transaction never reaches.)
    settings.RATE_LIMIT_USSD_STK = (1, 600)
    make_pledge(campaign, amount=1000, phone=gateway.phone)

    first = gateway.session("2", "1", "1")
    refused = gateway.session("2", "1", "1")

    assert first.startswith("END Enter your M-Pesa PIN when asked")
    assert refused == "END Too many payment prompts. Please try again in a few minutes."
