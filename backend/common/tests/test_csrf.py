"""Every unsafe /api/ request needs the CSRF token (common/middleware.py), public forms included."""

import pytest
from django.test import Client

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD
from feedback.models import Feedback

pytestmark = pytest.mark.django_db

SIGN_UP = {
    "first_name": "Grace",
    "last_name": "Wanjiku",
    "email": "grace@example.com",
    "phone": "0712345678",
    "id_number": "12345678",
    "password": DEFAULT_PASSWORD,
    "confirm_password": DEFAULT_PASSWORD,
}
PROFILE = {"first_name": "Akinyi", "last_name": "Odhiambo", "phone": "0712345678", "avatar_url": ""}


@pytest.fixture
def browser(user):
    """A browser holding a session and the CSRF cookie that sends no X-CSRFToken header."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/api/auth/session")
    return client


def assert_csrf_refused(response):
    assert response.status_code == 403
    assert response.json() == {
        "detail": "Your session has expired. Please reload the page and try again.",
        "code": "csrf_failed",
    }


def test_sign_in_without_the_token_is_refused_and_starts_no_session(user):
    client = Client(enforce_csrf_checks=True)
    client.get("/api/auth/session")

    response = client.post(
        "/api/auth/signin", {"email": user.email, "password": DEFAULT_PASSWORD}, content_type="application/json"
    )

    assert_csrf_refused(response)
    assert "_auth_user_id" not in client.session


def test_sign_up_without_the_token_is_refused_and_creates_no_account():
    client = Client(enforce_csrf_checks=True)
    client.get("/api/auth/session")

    response = client.post("/api/signup", SIGN_UP, content_type="application/json")

    assert_csrf_refused(response)
    assert not User.objects.exists()


def test_feedback_without_the_token_is_refused_and_not_saved(browser):
    response = browser.post("/api/feedback", {"message": "Hello there"}, content_type="application/json")

    assert_csrf_refused(response)
    assert not Feedback.objects.exists()


def test_profile_update_without_the_token_is_refused_and_changes_nothing(browser, user):
    response = browser.patch("/api/profile", PROFILE, content_type="application/json")

    assert_csrf_refused(response)
    user.refresh_from_db()
    assert user.first_name == "Wanjiru"


def test_a_request_without_the_csrf_cookie_is_refused():
    response = Client(enforce_csrf_checks=True).post(
        "/api/feedback", {"message": "Hello there"}, content_type="application/json"
    )

    assert_csrf_refused(response)


def test_a_token_from_another_browser_is_refused(browser, api_client):
    response = browser.post(
        "/api/feedback",
        {"message": "Hello there"},
        content_type="application/json",
        headers={"X-CSRFToken": api_client.csrf_token},
    )

    assert_csrf_refused(response)


def test_sign_in_with_the_token_passes(api_client, user):
    response = api_client.post("/api/auth/signin", {"email": user.email, "password": DEFAULT_PASSWORD})

    assert response.status_code == 200


def test_sign_up_with_the_token_passes(api_client):
    assert api_client.post("/api/signup", SIGN_UP).status_code == 201


def test_feedback_with_the_token_passes(api_client):
    assert api_client.post("/api/feedback", {"message": "Hello there"}).status_code == 201


def test_profile_update_with_the_token_passes(signed_in_client, user):
    response = signed_in_client.patch("/api/profile", PROFILE)

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.first_name == "Akinyi"
