"""The language switch (PUT /api/auth/language), the language kept on the profile, and the API
answering in the chosen language."""

import pytest
from django.conf import settings

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

INVALID_CREDENTIALS = "Invalid email or password."


def choose(client, language):
    return client.put("/api/auth/language", {"language": language}, content_type="application/json")


def test_a_visitor_s_choice_is_kept_in_a_cookie_for_a_year(api_client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = choose(api_client, "sw")

    assert response.status_code == 200
    assert response.json() == {"language": "sw"}
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "sw"
    assert cookie["max-age"] == 365 * 24 * 60 * 60
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


def test_a_signed_in_user_s_choice_is_kept_on_their_profile(signed_in_client, user):
    response = choose(signed_in_client, "sw")

    assert response.status_code == 200
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "sw"
    user.refresh_from_db()
    assert user.language == "sw"
    assert signed_in_client.get("/api/profile").json()["language"] == "sw"


def test_a_language_the_site_does_not_have_is_refused(api_client):
    response = choose(api_client, "fr")

    assert response.status_code == 422
    assert response.json()["field_errors"] == {"language": "Please choose English or Kiswahili."}
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_the_api_answers_in_the_chosen_language_and_keeps_the_spec_s_english(api_client):
    UserFactory.create(email="grace@example.com")
    wrong = {"email": "grace@example.com", "password": "Wrong#pass1"}

    assert api_client.post("/api/auth/signin", wrong).json()["detail"] == INVALID_CREDENTIALS
    choose(api_client, "sw")
    assert api_client.post("/api/auth/signin", wrong).json()["detail"] == "Barua pepe au nenosiri si sahihi."


def test_without_a_choice_the_browser_s_accept_language_decides(api_client):
    response = api_client.post(
        "/api/auth/signin", {"email": "", "password": ""}, HTTP_ACCEPT_LANGUAGE="sw-KE,sw;q=0.9,en;q=0.8"
    )

    assert response.json()["field_errors"]["password"] == "Nenosiri linahitajika"
    assert response["Content-Language"] == "sw"


def test_sign_up_keeps_the_language_the_visitor_uses(api_client):
    choose(api_client, "sw")
    payload = {
        "first_name": "Grace",
        "last_name": "Wanjiku",
        "email": "grace@example.com",
        "phone": "0712345678",
        "id_number": "12345678",
        "password": DEFAULT_PASSWORD,
        "confirm_password": DEFAULT_PASSWORD,
    }

    assert api_client.post("/api/signup", payload).status_code == 201
    assert User.objects.get(email="grace@example.com").language == "sw"


def test_signing_in_switches_this_browser_to_the_profile_s_language(api_client):
    UserFactory.create(email="grace@example.com", language="sw")

    response = api_client.post("/api/auth/signin", {"email": "grace@example.com", "password": DEFAULT_PASSWORD})

    assert response.status_code == 200
    assert response.json()["user"]["language"] == "sw"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "sw"


def test_signing_in_without_a_choice_on_the_profile_leaves_the_browser_s_language(api_client):
    UserFactory.create(email="grace@example.com")

    response = api_client.post("/api/auth/signin", {"email": "grace@example.com", "password": DEFAULT_PASSWORD})

    assert response.status_code == 200
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
