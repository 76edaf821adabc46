import logging
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Mpya#Siri2026"
EMAIL_TAKEN = (
    "This email is already registered. Please use a different email address or sign in if you already have an account."
)
PHONE_MESSAGE = "Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)"
NEW_PASSWORD_MESSAGE = "Password must be at least 8 characters, include a symbol, and at least one letter"
CHANGED_PASSWORD_MESSAGE = "Password must be at least 8 characters and include numbers, letters, and symbols."
INVALID_RESET_LINK = "This password reset link is invalid or has expired. Please request a new one."


class BrokenMailServer(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise ConnectionRefusedError("the mail server is down")


def signup_payload(**overrides):
    return {
        "first_name": "Grace",
        "last_name": "Wanjiku",
        "email": "grace@example.com",
        "phone": "0712345678",
        "id_number": "12345678",
        "password": DEFAULT_PASSWORD,
        "confirm_password": DEFAULT_PASSWORD,
        **overrides,
    }


def sign_in(client, email, password=DEFAULT_PASSWORD, **extra):
    return client.post("/api/auth/signin", {"email": email, "password": password}, **extra)


def reset_link_from_mail():
    """The link in the one password-reset e-mail sent, with its uid and token."""
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset-password?" in line).strip()
    query = parse_qs(urlsplit(link).query)
    return link, query["uid"][0], query["token"][0]


def confirm_reset(client, link, password=NEW_PASSWORD, confirm_password=None):
    uid, token = link
    return client.post(
        "/api/auth/password-reset/confirm",
        {
            "uid": uid,
            "token": token,
            "password": password,
            "confirm_password": password if confirm_password is None else confirm_password,
        },
    )


# Session --------------------------------------------------------------------------------


def test_session_for_a_visitor_has_no_user_and_a_csrf_token(api_client):
    response = api_client.get("/api/auth/session")

    assert response.status_code == 200
    assert response.json()["user"] is None
    assert response.json()["csrf_token"]
    assert api_client.cookies["csrftoken"]["httponly"]


def test_session_for_a_signed_in_user_has_their_data(signed_in_client, user):
    body = signed_in_client.get("/api/auth/session").json()

    assert body["user"]["id"] == user.pk
    assert body["user"]["email"] == user.email
    assert body["user"]["display_name"] == "Wanjiru"
    assert body["user"]["is_admin"] is False
    assert body["csrf_token"]


def test_session_for_a_visitor_needs_no_query(api_client, django_assert_num_queries):
    with django_assert_num_queries(0):
        api_client.get("/api/auth/session")


def test_session_for_a_signed_in_user_reads_the_session_and_the_user(signed_in_client, django_assert_num_queries):
    with django_assert_num_queries(2):
        signed_in_client.get("/api/auth/session")


# Sign-up --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"first_name": ""}, "first_name", "First name is required"),
        ({"first_name": "   "}, "first_name", "First name is required"),
        ({"first_name": "\u200b\u200c\u200d"}, "first_name", "First name is required"),
        ({"last_name": ""}, "last_name", "Last name is required"),
        ({"last_name": "\u2060.\u202e"}, "last_name", "Last name is required"),
        ({"email": ""}, "email", "Email is required"),
        ({"email": "grace.example.com"}, "email", "Please enter a valid email address"),
        ({"phone": ""}, "phone", PHONE_MESSAGE),
        ({"phone": "0812345678"}, "phone", PHONE_MESSAGE),
        ({"phone": "+25471234567"}, "phone", PHONE_MESSAGE),
        ({"id_number": "12345"}, "id_number", "ID number must be 6-9 characters"),
        ({"id_number": "1234567890"}, "id_number", "ID number must be 6-9 characters"),
        ({"password": "Harambee2026", "confirm_password": "Harambee2026"}, "password", NEW_PASSWORD_MESSAGE),
        ({"password": "2026#2026", "confirm_password": "2026#2026"}, "password", NEW_PASSWORD_MESSAGE),
        ({"password": "Ha#2026", "confirm_password": "Ha#2026"}, "password", NEW_PASSWORD_MESSAGE),
        ({"confirm_password": ""}, "confirm_password", "Please confirm your password"),
        ({"confirm_password": "Harambee#2025"}, "confirm_password", "Passwords do not match"),
    ],
)
def test_sign_up_refuses_each_broken_rule_with_its_message(api_client, overrides, field, message):
    response = api_client.post("/api/signup", signup_payload(**overrides))

    assert response.status_code == 422
    assert response.json()["field_errors"] == {field: message}
    assert not User.objects.exists()


def test_sign_up_reports_every_broken_rule_at_once(api_client):
    response = api_client.post("/api/signup", {})

    assert response.status_code == 422
    assert response.json()["detail"] == "Please correct the errors below"
    assert set(response.json()["field_errors"]) == {
        "first_name",
        "last_name",
        "email",
        "phone",
        "id_number",
        "password",
        "confirm_password",
    }


@pytest.mark.parametrize("email", ["grace@example.com", "Grace@Example.COM", " grace@example.com "])
def test_sign_up_with_a_registered_email_in_any_case_is_refused(api_client, email):
    UserFactory.create(email="grace@example.com")

    response = api_client.post("/api/signup", signup_payload(email=email))

    assert response.status_code == 422
    assert response.json()["field_errors"] == {"email": EMAIL_TAKEN}
    assert User.objects.count() == 1


@pytest.mark.parametrize("id_number", ["123456", "123456789"])
def test_sign_up_accepts_id_numbers_of_6_and_9_characters(api_client, id_number):
    response = api_client.post("/api/signup", signup_payload(id_number=id_number))

    assert response.status_code == 201
    assert User.objects.get().id_number == id_number


@pytest.mark.parametrize("phone", ["+254712345678", "0712345678", "0712 345 678", "+254 712 345 678"])
def test_sign_up_stores_a_mobile_number_as_e164(api_client, phone):
    response = api_client.post("/api/signup", signup_payload(phone=phone))

    assert response.status_code == 201
    assert User.objects.get().phone == "+254712345678"


def test_sign_up_accepts_and_stores_a_01_number_as_e164(api_client):
    response = api_client.post("/api/signup", signup_payload(phone="0112345678"))

    assert response.status_code == 201
    assert User.objects.get().phone == "+254112345678"


def test_sign_up_creates_the_account_and_signs_it_in(api_client):
    response = api_client.post("/api/signup", signup_payload(email="Grace@Example.com", first_name=" Grace "))

    assert response.status_code == 201
    body = response.json()
    user = User.objects.get()
    assert body["user"]["id"] == user.pk
    assert body["user"]["email"] == "grace@example.com"
    assert body["user"]["display_name"] == "Grace"
    assert body["csrf_token"]
    assert user.first_name == "Grace"
    assert user.check_password(DEFAULT_PASSWORD)
    assert api_client.get("/api/profile").json()["email"] == "grace@example.com"


def test_sign_up_takes_the_spec_s_camel_case_names_too(api_client):
    payload = signup_payload(email="amina@example.com")
    for name, camel in [
        ("first_name", "firstName"),
        ("last_name", "lastName"),
        ("id_number", "idNumber"),
        ("confirm_password", "confirmPassword"),
    ]:
        payload[camel] = payload.pop(name)
    payload["firstName"] = "Amina"

    response = api_client.post("/api/signup", payload)

    assert response.status_code == 201, response.content
    assert (User.objects.get().first_name, User.objects.get().last_name) == ("Amina", "Wanjiku")


def test_sign_up_queues_the_welcome_email_for_after_the_commit(api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        api_client.post("/api/signup", signup_payload())

    assert len(callbacks) == 1
    assert mail.outbox == []


def test_sign_up_sends_the_welcome_email(api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/signup", signup_payload())

    assert response.status_code == 201
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["grace@example.com"]
    assert mail.outbox[0].subject == "Welcome to Harambee"
    assert "Welcome to Harambee, Grace!" in mail.outbox[0].body


def test_welcome_email_text_is_not_html_escaped(api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post("/api/signup", signup_payload(first_name="N'Dege & Co"))

    assert "Welcome to Harambee, N'Dege & Co!" in mail.outbox[0].body


def test_sign_up_succeeds_and_logs_when_the_mail_server_fails(
    api_client, settings, caplog, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "accounts.tests.test_api.BrokenMailServer"

    with (
        caplog.at_level(logging.ERROR, logger="notifications.outbox"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = api_client.post("/api/signup", signup_payload())

    assert response.status_code == 201
    assert User.objects.filter(email="grace@example.com").exists()
    assert "Could not send e-mail" in caplog.text
    # Logs never hold an e-mail address (common.logs.PersonalDataFilter on the console handler).
    assert "grace@example.com" not in caplog.text


def test_sign_up_past_the_per_address_limit_asks_for_a_challenge(api_client, settings):
    settings.RATE_LIMIT_SIGN_UP = (2, 3600)
    api_client.post("/api/signup", signup_payload(email="one@example.com"))
    api_client.post("/api/signup", signup_payload(email="two@example.com"))

    response = api_client.post("/api/signup", signup_payload(email="three@example.com"))

    assert response.status_code == 429
    assert response.json()["detail"] == "Too many sign-up attempts. Please wait a while and try again."
    assert response.json()["code"] == "challenge_required"  # common/tests/test_challenges.py solves one
    assert not User.objects.filter(email="three@example.com").exists()


def test_malformed_input_is_answered_in_the_error_shape(api_client):
    response = api_client.post("/api/signup", {"first_name": 12})

    assert response.status_code == 422
    assert response.json()["code"] == "invalid"
    assert "first_name" in response.json()["field_errors"]


# Sign-in --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "field_errors"),
    [
        ({}, {"email": "Email is required", "password": "Password is required"}),
        ({"email": "grace@example.com", "password": ""}, {"password": "Password is required"}),
        ({"email": "grace", "password": "x"}, {"email": "Please enter a valid email address"}),
    ],
)
def test_sign_in_refuses_missing_or_malformed_fields(api_client, payload, field_errors):
    response = api_client.post("/api/auth/signin", payload)

    assert response.status_code == 422
    assert response.json()["field_errors"] == field_errors


def test_sign_in_with_a_wrong_password_is_refused(api_client, user):
    response = sign_in(api_client, user.email, "Wrong#Password1")

    assert response.status_code == 400
    assert response.json()["detail"] == "Invalid email or password."
    assert response.json()["code"] == "invalid_credentials"
    assert api_client.get("/api/profile").status_code == 401


def test_sign_in_with_an_unknown_email_gets_the_same_answer(api_client):
    response = sign_in(api_client, "nobody@example.com")

    assert response.status_code == 400
    assert response.json()["detail"] == "Invalid email or password."


def test_sign_in_refuses_an_inactive_user(api_client):
    user = UserFactory.create(is_active=False)

    response = sign_in(api_client, user.email)

    assert response.status_code == 400
    assert response.json()["detail"] == "Invalid email or password."


def test_sign_in_starts_a_session(api_client, user):
    response = sign_in(api_client, user.email)

    assert response.status_code == 200
    assert response.json()["user"]["email"] == user.email
    assert api_client.session["_auth_user_id"] == str(user.pk)
    assert api_client.get("/api/profile").status_code == 200


def test_sign_in_ignores_the_email_case(api_client):
    UserFactory.create(email="grace@example.com")

    assert sign_in(api_client, " Grace@EXAMPLE.com ").status_code == 200


def test_sign_in_rotates_the_csrf_token_and_answers_the_new_one(api_client, user):
    token_before = api_client.csrf_token
    sign_in(api_client, user.email)
    profile = {"first_name": "Akinyi", "last_name": "Odhiambo", "phone": "0712345678", "avatar_url": ""}

    stale = api_client.patch("/api/profile", profile, headers={"X-CSRFToken": token_before})
    fresh = api_client.patch("/api/profile", profile)

    assert stale.status_code == 403
    assert fresh.status_code == 200


def test_sign_in_is_refused_after_20_failures_for_the_account_from_anywhere_even_with_the_right_password(
    api_client, user
):
    for attempt in range(20):
        sign_in(api_client, user.email, "Wrong#Password1", REMOTE_ADDR=f"10.0.0.{attempt}")

    response = sign_in(api_client, user.email, REMOTE_ADDR="10.0.0.99")

    assert response.status_code == 429
    assert response.json()["detail"] == "Too many failed sign-in attempts. Please try again in 15 minutes."
    assert response.json()["code"] == "rate_limited"
    assert response["Retry-After"] == "900"
    assert api_client.get("/api/profile").status_code == 401


def test_sign_in_is_allowed_after_4_failures(api_client, user):
    for _ in range(4):
        sign_in(api_client, user.email, "Wrong#Password1")

    assert sign_in(api_client, user.email).status_code == 200


def test_sign_in_is_refused_after_5_failures_for_the_account_from_one_address_but_not_from_another(api_client, user):
    for _ in range(5):
        sign_in(api_client, user.email, "Wrong#Password1")

    assert sign_in(api_client, user.email).status_code == 429
    assert sign_in(api_client, user.email, REMOTE_ADDR="10.0.0.1").status_code == 200


def test_sign_in_is_allowed_again_when_the_15_minute_window_ends(api_client, user, advance_cache_clock):
    for _ in range(5):
        sign_in(api_client, user.email, "Wrong#Password1")
    advance_cache_clock(14 * 60)
    assert sign_in(api_client, user.email).status_code == 429

    advance_cache_clock(60 + 1)

    assert sign_in(api_client, user.email).status_code == 200


# Sign-out -------------------------------------------------------------------------------


def test_sign_out_ends_the_session(signed_in_client):
    response = signed_in_client.post("/api/auth/signout")

    assert response.status_code == 200
    assert response.json()["user"] is None
    assert signed_in_client.get("/api/profile").status_code == 401


# Forgot password ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("email", "message"),
    [
        ("", "Please enter your email address"),
        ("  ", "Please enter your email address"),
        ("grace@", "Please enter a valid email address"),
        (
            "nobody@example.com",
            "This email is not registered. Please check your email address or create a new account.",
        ),
    ],
)
def test_password_reset_request_refuses_a_missing_malformed_or_unknown_email(api_client, email, message):
    response = api_client.post("/api/auth/password-reset", {"email": email})

    assert response.status_code == 422
    assert response.json()["field_errors"] == {"email": message}
    assert mail.outbox == []


def test_password_reset_request_for_an_inactive_user_is_refused_as_not_registered(api_client):
    user = UserFactory.create(is_active=False)

    response = api_client.post("/api/auth/password-reset", {"email": user.email})

    assert response.status_code == 422
    assert mail.outbox == []


def test_password_reset_request_emails_one_link_to_the_reset_page(api_client, settings):
    settings.SITE_URL = "https://harambee.example"
    user = UserFactory.create(email="grace@example.com")

    response = api_client.post("/api/auth/password-reset", {"email": "Grace@Example.com"})

    assert response.status_code == 202
    assert response.json()["detail"] == "Check your email for a link to reset your password."
    assert mail.outbox[0].to == [user.email]
    link, uid, token = reset_link_from_mail()
    assert link == f"https://harambee.example/reset-password?uid={uid}&token={token}"
    assert isinstance(mail.outbox[0], EmailMultiAlternatives)
    html_body, _ = mail.outbox[0].alternatives[0]
    assert isinstance(html_body, str)
    assert f'href="https://harambee.example/reset-password?uid={uid}&amp;token={token}"' in html_body


def test_password_reset_request_is_rate_limited(api_client, user):
    for _ in range(5):
        api_client.post("/api/auth/password-reset", {"email": user.email})

    response = api_client.post("/api/auth/password-reset", {"email": user.email})

    assert response.status_code == 429
    assert response.json()["detail"] == "Too many password reset requests. Please wait a while and try again."
    assert len(mail.outbox) == 5


# Reset password -------------------------------------------------------------------------


@pytest.fixture
def reset_link(api_client, user):
    api_client.post("/api/auth/password-reset", {"email": user.email})
    _, uid, token = reset_link_from_mail()
    return uid, token


def test_password_reset_sets_the_new_password(api_client, user, reset_link):
    response = confirm_reset(api_client, reset_link)

    assert response.status_code == 200
    assert response.json()["detail"] == "Your password has been reset. You can now sign in."
    assert sign_in(api_client, user.email, DEFAULT_PASSWORD).status_code == 400
    assert sign_in(api_client, user.email, NEW_PASSWORD).status_code == 200


def test_password_reset_link_works_only_once(api_client, user, reset_link):
    confirm_reset(api_client, reset_link)

    response = confirm_reset(api_client, reset_link, password="Another#Pass1")

    assert response.status_code == 400
    assert response.json()["detail"] == INVALID_RESET_LINK
    assert response.json()["code"] == "invalid_token"
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


@pytest.mark.parametrize(
    ("tamper_uid", "tamper_token"),
    [
        (lambda uid: uid, lambda token: token[:-1] + ("a" if token[-1] != "a" else "b")),
        (lambda uid: "not-base64!", lambda token: token),
        (lambda uid: "OTk5OTk5", lambda token: token),  # base64 of 999999, no such user
    ],
    ids=["changed token", "malformed uid", "unknown uid"],
)
def test_password_reset_with_a_tampered_link_is_refused(api_client, user, reset_link, tamper_uid, tamper_token):
    uid, token = reset_link

    response = confirm_reset(api_client, (tamper_uid(uid), tamper_token(token)))

    assert response.status_code == 400
    assert response.json()["detail"] == INVALID_RESET_LINK
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


def test_password_reset_link_expires_after_a_day(api_client, user, reset_link, monkeypatch):
    later = datetime.now() + timedelta(days=1, minutes=1)  # noqa: DTZ005 the token generator's own (naive) clock
    monkeypatch.setattr(PasswordResetTokenGenerator, "_now", lambda self: later)

    response = confirm_reset(api_client, reset_link)

    assert response.status_code == 400
    assert response.json()["detail"] == INVALID_RESET_LINK


def test_password_reset_ends_the_users_other_sessions(api_client, user, make_api_client):
    other_browser = make_api_client(signed_in_as=user)
    assert other_browser.get("/api/profile").status_code == 200
    api_client.post("/api/auth/password-reset", {"email": user.email})
    _, uid, token = reset_link_from_mail()

    assert confirm_reset(api_client, (uid, token)).status_code == 200

    assert other_browser.get("/api/profile").status_code == 401


@pytest.mark.parametrize(
    ("password", "confirm_password", "field", "message"),
    [
        ("", "", "password", "Please enter a new password"),
        ("weakpassword", "weakpassword", "password", NEW_PASSWORD_MESSAGE),
        (NEW_PASSWORD, "Mpya#Siri2025", "confirm_password", "Passwords do not match"),
        (NEW_PASSWORD, "", "confirm_password", "Passwords do not match"),
    ],
)
def test_password_reset_refuses_a_missing_weak_or_unconfirmed_password(
    api_client, user, reset_link, password, confirm_password, field, message
):
    response = confirm_reset(api_client, reset_link, password=password, confirm_password=confirm_password)

    assert response.status_code == 422
    assert response.json()["field_errors"] == {field: message}
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


# Profile --------------------------------------------------------------------------------


def profile_payload(**overrides):
    return {
        "first_name": "Akinyi",
        "last_name": "Odhiambo",
        "phone": "0722 000 111",
        "avatar_url": "https://example.com/akinyi.png",
        **overrides,
    }


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/api/profile"), ("patch", "/api/profile"), ("post", "/api/profile/password")],
)
def test_profile_endpoints_need_a_session(api_client, method, path):
    response = getattr(api_client, method)(path)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response.json()["detail"] == "Please sign in to continue."


def test_profile_returns_the_signed_in_user(signed_in_client, user):
    response = signed_in_client.get("/api/profile")

    assert response.status_code == 200
    body = response.json()
    assert body["id"] == user.pk
    assert body["email"] == user.email
    assert body["first_name"] == "Wanjiru"
    assert body["last_name"] == "Kamau"
    assert body["phone"] == user.phone
    assert body["display_name"] == "Wanjiru"
    assert body["is_admin"] is False


def test_profile_of_a_staff_user_says_admin(make_api_client):
    client = make_api_client(signed_in_as=UserFactory.create(is_staff=True))

    assert client.get("/api/profile").json()["is_admin"] is True


def test_profile_reads_the_session_and_the_user(signed_in_client, django_assert_num_queries):
    with django_assert_num_queries(2):
        signed_in_client.get("/api/profile")


def test_profile_update_saves_the_fields(signed_in_client, user):
    response = signed_in_client.patch("/api/profile", profile_payload())

    assert response.status_code == 200
    assert response.json()["display_name"] == "Akinyi"
    user.refresh_from_db()
    assert (user.first_name, user.last_name, user.phone, user.avatar_url) == (
        "Akinyi",
        "Odhiambo",
        "+254722000111",
        "https://example.com/akinyi.png",
    )


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"first_name": " "}, "first_name", "First name is required"),
        ({"first_name": "\ufeff\u200b"}, "first_name", "First name is required"),
        ({"last_name": ""}, "last_name", "Last name is required"),
        ({"phone": "0812345678"}, "phone", PHONE_MESSAGE),
        (
            {"avatar_url": "ftp://example.com/a.png"},
            "avatar_url",
            "Please enter a valid URL starting with http:// or https://",
        ),
    ],
)
def test_profile_update_refuses_each_broken_rule(signed_in_client, user, overrides, field, message):
    response = signed_in_client.patch("/api/profile", profile_payload(**overrides))

    assert response.status_code == 422
    assert response.json()["field_errors"] == {field: message}
    user.refresh_from_db()
    assert user.first_name == "Wanjiru"


def test_profile_update_cannot_change_the_email(signed_in_client, user):
    original_email = user.email

    response = signed_in_client.patch("/api/profile", profile_payload(email="new@example.com"))

    assert response.status_code == 200
    assert response.json()["email"] == original_email
    user.refresh_from_db()
    assert user.email == original_email


# Profile password change ----------------------------------------------------------------


def change_password(client, current=DEFAULT_PASSWORD, new=NEW_PASSWORD, confirm=None):
    return client.post(
        "/api/profile/password",
        {"current_password": current, "new_password": new, "confirm_password": new if confirm is None else confirm},
    )


@pytest.mark.parametrize(
    ("current", "new", "confirm", "message"),
    [
        ("", NEW_PASSWORD, NEW_PASSWORD, "All fields are required."),
        (DEFAULT_PASSWORD, "", "", "All fields are required."),
        (DEFAULT_PASSWORD, NEW_PASSWORD, "", "All fields are required."),
        (DEFAULT_PASSWORD, NEW_PASSWORD, "Mpya#Siri2025", "New passwords do not match."),
        (DEFAULT_PASSWORD, "Mpya#Siri", "Mpya#Siri", CHANGED_PASSWORD_MESSAGE),
        (DEFAULT_PASSWORD, "Mpya2026", "Mpya2026", CHANGED_PASSWORD_MESSAGE),
        ("Wrong#Password1", NEW_PASSWORD, NEW_PASSWORD, "Old password is incorrect."),
    ],
)
def test_password_change_refuses_each_broken_rule(signed_in_client, user, current, new, confirm, message):
    response = change_password(signed_in_client, current, new, confirm)

    assert response.status_code == 400
    assert response.json()["detail"] == message
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


def test_password_change_keeps_this_session_and_ends_the_others(signed_in_client, user, make_api_client):
    other_browser = make_api_client(signed_in_as=user)

    response = change_password(signed_in_client)

    assert response.status_code == 200
    assert response.json()["detail"] == "Password updated successfully."
    assert signed_in_client.get("/api/profile").status_code == 200
    assert other_browser.get("/api/profile").status_code == 401
    assert sign_in(make_api_client(), user.email, NEW_PASSWORD).status_code == 200
