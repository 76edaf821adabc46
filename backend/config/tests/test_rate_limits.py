"""Each rate limit of the README's table trips: the attempt after the last allowed one is answered 429.

The limits are lowered to two attempts here; their real numbers are in settings (RATE_LIMIT_*).
"""

import pytest

from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from pledges.tests.factories import PledgeFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("payment_providers")]

TWO = (2, 600)


def from_address(client, path, body, address="203.0.113.10"):
    return client.post(path, body, REMOTE_ADDR=address)


def statuses(client, path, bodies, address="203.0.113.10"):
    return [from_address(client, path, body, address).status_code for body in bodies]


def donation(campaign, phone, n):
    return {
        "campaign_id": campaign.pk,
        "amount": 100,
        "name": "Achieng",
        "email": "achieng@example.com",
        "phone": phone,
        "method": "mpesa",
        "idempotency_key": f"donation-{n:04d}",
    }


def test_sign_in_is_limited_per_account(api_client, user, settings):
    settings.RATE_LIMIT_SIGN_IN = TWO
    wrong = {"email": user.email, "password": "not-the-password"}

    assert statuses(api_client, "/api/auth/signin", [wrong, wrong]) == [400, 400]
    right = {"email": user.email, "password": DEFAULT_PASSWORD}
    assert from_address(api_client, "/api/auth/signin", right, "198.51.100.7").status_code == 429


def test_sign_up_is_limited_per_address(api_client, settings):
    settings.RATE_LIMIT_SIGN_UP = TWO
    bodies = [
        {
            "first_name": "Grace",
            "last_name": "Wanjiku",
            "email": f"grace{n}@example.com",
            "phone": f"07123456{n:02d}",
            "id_number": f"3123456{n}",
            "password": DEFAULT_PASSWORD,
            "confirm_password": DEFAULT_PASSWORD,
        }
        for n in range(3)
    ]

    assert statuses(api_client, "/api/signup", bodies) == [201, 201, 429]


def test_password_reset_requests_are_limited(api_client, user, settings):
    settings.RATE_LIMIT_PASSWORD_RESET = TWO
    body = {"email": user.email}

    assert statuses(api_client, "/api/auth/password-reset", [body] * 3) == [202, 202, 429]


def test_pledges_are_limited_per_address(api_client, settings):
    settings.RATE_LIMIT_PLEDGE = TWO
    campaign = CampaignFactory.create()
    body = {
        "campaign_id": campaign.pk,
        "amount": 500,
        "name": "Mwangi",
        "email": "m@example.com",
        "phone": "0708374149",
    }

    assert statuses(api_client, "/api/pledges", [body] * 3) == [201, 201, 429]
    assert from_address(api_client, "/api/pledges", body, "198.51.100.7").status_code == 201


def test_stk_pushes_to_one_phone_are_limited_whatever_the_address_and_purpose(api_client, settings):
    settings.RATE_LIMIT_STK_PUSH_PHONE = TWO
    campaign = CampaignFactory.create()
    pledge = PledgeFactory.create(campaign=campaign, phone="+254708374149")

    first = from_address(api_client, "/api/donations", donation(campaign, "0708374149", 1), "203.0.113.1")
    second = from_address(
        api_client,
        f"/api/pledges/{pledge.code}/stk-push",
        {"phone": "+254 708 374 149", "amount": 100, "idempotency_key": "pledge-0001"},
        "203.0.113.2",
    )
    third = from_address(api_client, "/api/donations", donation(campaign, "+254708374149", 3), "203.0.113.3")

    assert [first.status_code, second.status_code, third.status_code] == [201, 201, 429]
    assert third.json()["code"] == "rate_limited"
    other_phone = from_address(api_client, "/api/donations", donation(campaign, "0711000222", 4), "203.0.113.4")
    assert other_phone.status_code == 201


def test_stk_pushes_from_one_address_are_limited_whatever_the_phone(api_client, settings):
    settings.RATE_LIMIT_STK_PUSH_IP = TWO
    campaign = CampaignFactory.create()
    bodies = [donation(campaign, phone, n) for n, phone in enumerate(["0708374149", "0711000222", "0722000333"])]

    assert statuses(api_client, "/api/donations", bodies) == [201, 201, 429]


def test_fee_stk_pushes_count_towards_the_phone_limit(make_api_client, settings):
    settings.RATE_LIMIT_STK_PUSH_PHONE = TWO
    organizer = UserFactory.create()
    client = make_api_client(signed_in_as=organizer)
    bodies = [
        {
            "purpose": "campaign_activation",
            "campaign_id": CampaignFactory.create(organizer=organizer, status=CampaignStatus.PENDING).pk,
            "phone": "0708374149",
            "idempotency_key": f"activation-{n:04d}",
        }
        for n in range(3)
    ]

    assert statuses(client, "/api/payments/stk-push", bodies) == [201, 201, 429]


def test_feedback_is_limited_per_address(api_client, settings):
    settings.RATE_LIMIT_FEEDBACK = TWO
    body = {"message": "The donate button is hard to find", "page": "/explore"}

    assert statuses(api_client, "/api/feedback", [body] * 3) == [201, 201, 429]
    assert from_address(api_client, "/api/feedback", body, "198.51.100.7").status_code == 201
