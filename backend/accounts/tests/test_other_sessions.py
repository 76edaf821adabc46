"""A new password ends the user's other sessions: a stolen session cookie stops working.

Changing it keeps the browser that changed it signed in; a reset (from an e-mailed link, typically
by someone who lost access) ends every session.
"""

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.tests.factories import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Kesho#Bora2027"


def is_signed_in(client) -> bool:
    return client.get("/api/profile").status_code == 200


def test_a_password_change_keeps_this_session_and_ends_the_others(make_api_client, user):
    here, phone, laptop = (make_api_client(signed_in_as=user) for _ in range(3))

    response = here.post(
        "/api/profile/password",
        {"current_password": DEFAULT_PASSWORD, "new_password": NEW_PASSWORD, "confirm_password": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert is_signed_in(here)
    assert not is_signed_in(phone)
    assert not is_signed_in(laptop)


def test_a_password_reset_ends_every_session(make_api_client, user):
    phone, laptop = make_api_client(signed_in_as=user), make_api_client(signed_in_as=user)
    link_opener = make_api_client()

    response = link_opener.post(
        "/api/auth/password-reset/confirm",
        {
            "uid": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
            "password": NEW_PASSWORD,
            "confirm_password": NEW_PASSWORD,
        },
    )

    assert response.status_code == 200
    assert not is_signed_in(phone)
    assert not is_signed_in(laptop)
    assert not is_signed_in(link_opener)
