"""Each rate limit of the table in docs/operations/rate-limits.md trips: the attempt after the last allowed one is answered 429.

The limits are lowered to two attempts here; their real numbers are in settings (RATE_LIMIT_*).
"""

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from django.db import connection

from accounts import services as accounts_services
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_PAYBILL
from pledges.models import Pledge
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


def test_sign_in_failures_are_limited_per_account_and_address(api_client, user, settings):
    settings.RATE_LIMIT_SIGN_IN = TWO
    wrong = {"email": user.email, "password": "not-the-password"}
    right = {"email": user.email, "password": DEFAULT_PASSWORD}

    assert statuses(api_client, "/api/auth/signin", [wrong, wrong, right]) == [400, 400, 429]
    assert from_address(api_client, "/api/auth/signin", right, "198.51.100.7").status_code == 200


def test_sign_in_failures_are_limited_per_account_from_everywhere(make_api_client, user, settings):
    settings.RATE_LIMIT_SIGN_IN_ACCOUNT = TWO
    wrong = {"email": user.email, "password": "not-the-password"}
    attacker = make_api_client()

    assert [from_address(attacker, "/api/auth/signin", wrong, f"127.0.18.{n}").status_code for n in (1, 2)] == [
        400,
        400,
    ]
    right = {"email": user.email, "password": DEFAULT_PASSWORD}
    assert from_address(make_api_client(), "/api/auth/signin", right, "127.0.18.3").status_code == 429


def test_a_sign_in_is_counted_before_its_password_is_checked_so_parallel_guesses_get_no_more_checked(
    make_api_client, user, settings, monkeypatch
):
    settings.RATE_LIMIT_SIGN_IN = (1, 600)
    wrong = {"email": user.email, "password": "not-the-password"}
    checked, meanwhile = [], []
    check = accounts_services.authenticate

    def check_while_another_guess_arrives(request, **credentials):
        checked.append(credentials["password"])
        if len(checked) == 1:
            meanwhile.append(from_address(make_api_client(), "/api/auth/signin", {**wrong, "password": "guess-2"}))
        return check(request, **credentials)

    monkeypatch.setattr(accounts_services, "authenticate", check_while_another_guess_arrives)

    first = from_address(make_api_client(), "/api/auth/signin", wrong)

    assert (first.status_code, meanwhile[0].status_code) == (400, 429)
    assert checked == ["not-the-password"]


def test_failed_sign_ins_for_other_accounts_from_one_address_never_refuse_a_members_right_password(
    make_api_client, user
):
    church_wifi = "127.0.18.10"
    for n in range(8):
        wrong = {"email": f"someone{n}@example.com", "password": "not-the-password"}
        assert from_address(make_api_client(), "/api/auth/signin", wrong, church_wifi).status_code == 400

    right = {"email": user.email, "password": DEFAULT_PASSWORD}
    answer = from_address(make_api_client(), "/api/auth/signin", right, church_wifi)

    assert answer.status_code == 200
    assert answer.json()["user"]["email"] == user.email


def test_a_device_that_signed_in_before_is_not_locked_out_by_strangers_failures(make_api_client, user, settings):
    settings.RATE_LIMIT_SIGN_IN_ACCOUNT = TWO
    right = {"email": user.email, "password": DEFAULT_PASSWORD}
    members_phone = make_api_client()
    assert from_address(members_phone, "/api/auth/signin", right, "127.0.18.20").status_code == 200
    cookie = members_phone.cookies["harambee_device"]
    assert cookie["path"] == "/api/auth/"
    assert cookie["httponly"]
    members_phone.post("/api/auth/signout")

    wrong = {"email": user.email, "password": "not-the-password"}
    for n in range(1, 6):
        from_address(make_api_client(), "/api/auth/signin", wrong, f"127.0.18.{20 + n}")

    assert from_address(make_api_client(), "/api/auth/signin", right, "127.0.18.20").status_code == 429
    assert from_address(members_phone, "/api/auth/signin", right, "127.0.18.20").status_code == 200


def test_a_forged_device_cookie_is_ignored(make_api_client, user, settings):
    settings.RATE_LIMIT_SIGN_IN_ACCOUNT = TWO
    wrong = {"email": user.email, "password": "not-the-password"}
    for n in range(1, 3):
        from_address(make_api_client(), "/api/auth/signin", wrong, f"127.0.18.{30 + n}")
    forger = make_api_client()
    forger.cookies["harambee_device"] = "eyJkZXZpY2UiOiJ4In0:forged:signature"

    right = {"email": user.email, "password": DEFAULT_PASSWORD}
    assert from_address(forger, "/api/auth/signin", right, "127.0.18.33").status_code == 429


def test_a_locked_sign_in_says_when_to_retry_and_each_lock_lasts_longer(
    make_api_client, user, settings, advance_cache_clock
):
    settings.RATE_LIMIT_SIGN_IN = TWO
    wrong = {"email": user.email, "password": "not-the-password"}
    attacker = make_api_client()

    statuses(attacker, "/api/auth/signin", [wrong, wrong], "127.0.18.40")
    first = from_address(attacker, "/api/auth/signin", wrong, "127.0.18.40")
    assert first.status_code == 429
    assert 590 <= int(first["Retry-After"]) <= 600

    advance_cache_clock(601)
    statuses(attacker, "/api/auth/signin", [wrong, wrong], "127.0.18.40")
    second = from_address(attacker, "/api/auth/signin", wrong, "127.0.18.40")
    assert second.status_code == 429
    assert 1190 <= int(second["Retry-After"]) <= 1200
    assert "20 minutes" in second.json()["detail"]


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


def pledge_body(campaign):
    return {
        "campaign_id": campaign.pk,
        "amount": 500,
        "name": "Mwangi",
        "email": "m@example.com",
        "phone": "0708374149",
    }


def test_pledges_are_limited_per_address(api_client, settings):
    settings.RATE_LIMIT_PLEDGE = TWO
    body = pledge_body(CampaignFactory.create())

    assert statuses(api_client, "/api/pledges", [body] * 3) == [201, 201, 429]
    assert from_address(api_client, "/api/pledges", body, "198.51.100.7").status_code == 201


def test_stk_pushes_to_one_phone_are_limited_whatever_the_address_and_purpose(api_client, settings):
    settings.RATE_LIMIT_STK_PUSH_PHONE = TWO
    campaign = CampaignFactory.create(paybill=TEST_PAYBILL)
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
    campaign = CampaignFactory.create(paybill=TEST_PAYBILL)
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


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (concurrent writers); CI runs it with DATABASE_URL set",
)
def test_100_parallel_pledges_from_one_address_get_no_more_through_than_sequential_ones(live_server, settings):
    settings.RATE_LIMIT_PLEDGE = (30, 600)
    settings.RATE_LIMIT_GIVING_CONTACT = (1000, 600)  # every pledge names the same phone and e-mail
    body = pledge_body(CampaignFactory.create())
    with httpx.Client(base_url=live_server.url, timeout=60) as browser:
        token = browser.get("/api/auth/session").json()["csrf_token"]
        headers = {"X-CSRFToken": token, "Referer": live_server.url}
        with ThreadPoolExecutor(max_workers=20) as pool:
            answers = list(pool.map(lambda _: browser.post("/api/pledges", json=body, headers=headers), range(100)))

    assert sorted({answer.status_code for answer in answers}) == [201, 429]
    assert sum(answer.status_code == 201 for answer in answers) == 30
    assert Pledge.objects.count() == 30
