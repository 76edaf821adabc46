"""Proving a phone number with a one-time code: 6 digits by SMS, 10 minutes, 5 tries, limited per number."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import PhoneVerification, User
from accounts.signals import phone_code_requested
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

START = "/api/profile/phone-verification"
CONFIRM = "/api/profile/phone-verification/confirm"


def texted_code(django_capture_on_commit_callbacks, client, phone=""):
    """Ask for a code; the code as the SMS carries it (read from the announcement to notifications)."""
    codes = []

    def receive(sender, code, **kwargs):
        codes.append(code)

    phone_code_requested.connect(receive)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(START, {"phone": phone})
    finally:
        phone_code_requested.disconnect(receive)
    assert answer.status_code == 202, answer.content
    return answer, codes[0]


def test_the_right_code_proves_the_number_and_makes_it_the_accounts(
    make_api_client, django_capture_on_commit_callbacks
):
    user = UserFactory.create(phone="+254712000001")
    client = make_api_client(signed_in_as=user)

    answer, code = texted_code(django_capture_on_commit_callbacks, client, phone="0722 000 002")
    confirmed = client.post(CONFIRM, {"code": code})

    assert answer.json()["phone"] == "+254722000002"
    assert (confirmed.status_code, confirmed.json()["phone"], confirmed.json()["phone_verified"]) == (
        200,
        "+254722000002",
        True,
    )
    user.refresh_from_db()
    assert user.verified_phone == "+254722000002"


def test_only_a_hash_of_the_code_is_kept(make_api_client, django_capture_on_commit_callbacks):
    user = UserFactory.create()
    _answer, code = texted_code(django_capture_on_commit_callbacks, make_api_client(signed_in_as=user))

    verification = PhoneVerification.objects.get()
    assert code not in verification.code_hash and len(verification.code_hash) == 64
    assert verification.expires_at - verification.created_at == timedelta(minutes=10)


def test_five_wrong_tries_use_the_code_up(make_api_client, django_capture_on_commit_callbacks):
    user = UserFactory.create()
    client = make_api_client(signed_in_as=user)
    _answer, code = texted_code(django_capture_on_commit_callbacks, client)
    wrong = "000000" if code != "000000" else "111111"

    answers = [client.post(CONFIRM, {"code": wrong}) for _try in range(5)]
    last = client.post(CONFIRM, {"code": code})

    assert [a.status_code for a in answers] == [422] * 5
    assert answers[0].json()["field_errors"]["code"] == "This code is not right. Tries left: 4."
    assert (last.status_code, last.json()["code"]) == (400, "code_expired")
    assert User.objects.get(pk=user.pk).phone_verified_at is None


def test_a_code_is_good_for_ten_minutes(make_api_client, django_capture_on_commit_callbacks):
    user = UserFactory.create()
    client = make_api_client(signed_in_as=user)
    _answer, code = texted_code(django_capture_on_commit_callbacks, client)
    PhoneVerification.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    answer = client.post(CONFIRM, {"code": code})

    assert (answer.status_code, answer.json()["code"]) == (400, "code_expired")


def test_a_new_code_replaces_the_earlier_one(make_api_client, django_capture_on_commit_callbacks):
    client = make_api_client(signed_in_as=UserFactory.create())
    _answer, first = texted_code(django_capture_on_commit_callbacks, client)
    _answer, second = texted_code(django_capture_on_commit_callbacks, client)

    assert PhoneVerification.objects.count() == 1
    if first != second:
        assert client.post(CONFIRM, {"code": first}).status_code == 422
    assert client.post(CONFIRM, {"code": second}).status_code == 200


def test_codes_to_one_number_are_limited(make_api_client, settings):
    settings.RATE_LIMIT_PHONE_VERIFICATION = (2, 3600)
    clients = [make_api_client(signed_in_as=UserFactory.create()) for _account in range(3)]

    answers = [client.post(START, {"phone": "0712000009"}) for client in clients]

    assert [a.status_code for a in answers] == [202, 202, 429]


def test_codes_to_one_number_are_capped_a_day_whatever_the_hourly_limit(make_api_client, settings):
    settings.RATE_LIMIT_PHONE_VERIFICATION = (100, 3600)
    settings.RATE_LIMIT_PHONE_VERIFICATION_DAY = (2, 86400)
    clients = [make_api_client(signed_in_as=UserFactory.create()) for _account in range(3)]

    answers = [client.post(START, {"phone": "0712000010"}) for client in clients]
    other_number = clients[2].post(START, {"phone": "0712000011"})

    assert [a.status_code for a in answers] == [202, 202, 429]
    assert other_number.status_code == 202


def test_a_number_proven_by_another_account_is_no_longer_proven_by_the_first(
    make_api_client, django_capture_on_commit_callbacks
):
    first = UserFactory.create(phone="+254712000003", phone_verified_at=timezone.now())
    client = make_api_client(signed_in_as=UserFactory.create())
    _answer, code = texted_code(django_capture_on_commit_callbacks, client, phone="0712000003")

    client.post(CONFIRM, {"code": code})

    first.refresh_from_db()
    assert first.verified_phone == ""


def test_changing_the_phone_in_the_profile_unproves_it(make_api_client):
    user = UserFactory.create(phone="+254712000004", phone_verified_at=timezone.now())

    make_api_client(signed_in_as=user).patch(
        "/api/profile", {"first_name": "A", "last_name": "B", "phone": "0712000005", "avatar_url": ""}
    )

    user.refresh_from_db()
    assert (user.phone, user.verified_phone) == ("+254712000005", "")


def test_a_bad_number_is_refused(make_api_client):
    answer = make_api_client(signed_in_as=UserFactory.create()).post(START, {"phone": "12345"})

    assert (answer.status_code, list(answer.json()["field_errors"])) == (422, ["phone"])
