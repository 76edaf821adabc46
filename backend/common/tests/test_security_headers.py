"""Security headers and cookie flags on every answer, and the stricter ones a deployment adds.

The Content-Security-Policy comes from django-csp (settings.CONTENT_SECURITY_POLICY): Django's
own CSP support arrives only with Django 6, which needs Python 3.12; we are on Django 5.2 LTS.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings

import payments.services
from accounts.tests.factories import DEFAULT_PASSWORD
from payments.models import Payment

pytestmark = pytest.mark.django_db

BACKEND_DIR = Path(django_settings.BASE_DIR)


@pytest.fixture(autouse=True)
def built_frontend(settings, tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>Harambee</title>", encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path


def csp_directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in policy.split(";") if part.strip())}


@pytest.mark.parametrize("path", ["/", "/campaign/12", "/api/campaigns", "/api/auth/session"])
def test_pages_and_api_answers_carry_the_security_headers(client, path):
    response = client.get(path)

    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert csp_directives(response)["frame-ancestors"] == ["'none'"]


def test_the_policy_allows_no_inline_script_and_frames_only_the_checkout_and_youtube_nocookie(client):
    directives = csp_directives(client.get("/"))

    assert directives["script-src"] == ["'self'"]
    assert directives["default-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert set(directives["frame-src"]) == {
        "'self'",  # the local payment simulator's checkout page
        "https://www.youtube-nocookie.com",
        "https://checkout.paystack.com",
    }


def test_the_card_return_page_may_be_framed_by_the_app_itself_only(client, monkeypatch):
    """The checkout dialog's last page, shown in the app's own frame."""
    payment = Payment.objects.create(provider=Payment.Provider.CARD, purpose=Payment.Purpose.SUBSCRIPTION, amount=2500)
    monkeypatch.setattr(payments.services, "payment_confirm_card", lambda reference: payment)

    response = client.get("/api/payments/card/return", {"reference": payment.reference})

    assert response["X-Frame-Options"] == "SAMEORIGIN"
    assert csp_directives(response)["frame-ancestors"] == ["'self'"]


def test_the_csrf_and_session_cookies_are_http_only_and_same_site(api_client, user):
    csrf_cookie = api_client.cookies["csrftoken"]

    api_client.post("/api/auth/signin", {"email": user.email, "password": DEFAULT_PASSWORD})

    session_cookie = api_client.cookies["sessionid"]
    for cookie in (csrf_cookie, session_cookie):
        assert cookie["httponly"] is True
        assert cookie["samesite"] == "Lax"


def production_settings() -> dict[str, object]:
    """The settings as a deployment computes them (a new interpreter: settings are read at start-up)."""
    names = [
        "SECURE_HSTS_SECONDS",
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SESSION_COOKIE_HTTPONLY",
        "CSRF_COOKIE_HTTPONLY",
    ]
    script = f"import json, config.settings as s; print(json.dumps({{n: getattr(s, n, None) for n in {names!r}}}))"
    environment = {
        **os.environ,
        "HARAMBEE_ENV": "production",
        "SECRET_KEY": "a-production-like-secret",
        "ALLOWED_HOSTS": "harambee.example",
        "MPESA_CALLBACK_TOKEN": "token",
        "PAYSTACK_SECRET_KEY": "sk_live_example",
        "AFRICASTALKING_API_KEY": "key",
        "AFRICASTALKING_CALLBACK_TOKEN": "token",
    }
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    answer = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", script], cwd=BACKEND_DIR, env=environment, capture_output=True, text=True, check=True
    )
    return json.loads(answer.stdout.strip().splitlines()[-1])


def test_a_deployment_sends_hsts_and_secure_cookies():
    production = production_settings()

    assert production["SECURE_HSTS_SECONDS"] == 60 * 60 * 24 * 365
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SESSION_COOKIE_SECURE"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    assert production["SESSION_COOKIE_HTTPONLY"] is True
    assert production["CSRF_COOKIE_HTTPONLY"] is True


def test_hsts_is_sent_on_https_answers_when_configured(client, settings):
    settings.SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365

    response = client.get("/api/campaigns", secure=True)

    assert response["Strict-Transport-Security"] == "max-age=31536000"


def test_local_use_sends_no_hsts(client):
    assert "Strict-Transport-Security" not in client.get("/api/campaigns", secure=True)
