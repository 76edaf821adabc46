"""Django's password validators beside the spec's strength rule, and the admins' 12 characters."""

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

SPEC_RULE = "Password must be at least 8 characters, include a symbol, and at least one letter"


def sign_up(client, password):
    body = {
        "first_name": "Grace",
        "last_name": "Wanjiku",
        "email": "grace.wanjiku@example.com",
        "phone": "0712345678",
        "id_number": "12345678",
        "password": password,
        "confirm_password": password,
    }
    return client.post("/api/signup", body, REMOTE_ADDR="127.0.18.70")


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("password1!", "This password is too common."),
        ("Wanjiku#2026", "The password is too similar to the email."),
        ("short", SPEC_RULE),  # the spec's message comes first
    ],
)
def test_sign_up_refuses_common_passwords_and_ones_like_the_users_details(api_client, password, message):
    answer = sign_up(api_client, password)

    assert answer.status_code == 422
    assert answer.json()["field_errors"]["password"] == message
    assert not User.objects.exists()


def test_an_admin_cannot_change_to_a_password_under_12_characters(make_api_client):
    admin = UserFactory.create(is_staff=True)
    body = {"current_password": DEFAULT_PASSWORD, "new_password": "Short#Pass1", "confirm_password": "Short#Pass1"}

    answer = make_api_client(signed_in_as=admin).post("/api/profile/password", body)

    assert answer.status_code == 400
    assert answer.json()["detail"] == "An admin's password must be at least 12 characters."


def test_createsuperuser_refuses_a_password_under_12_characters(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "Short#Pass1")

    with pytest.raises(CommandError, match="at least 12 characters"):
        call_command("createsuperuser", "--noinput", "--email", "boss@example.com", verbosity=0)

    assert not User.objects.exists()


def test_createsuperuser_accepts_a_12_character_password(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "Longer#Pass12")

    call_command("createsuperuser", "--noinput", "--email", "boss@example.com", verbosity=0)

    assert User.objects.get(email="boss@example.com").is_staff


def test_an_account_becomes_staff_only_with_a_password_of_admin_length():
    member = User.objects.create_user("member@example.com", "Short#Pass1")
    member.is_staff = True

    with pytest.raises(ValidationError) as refusal:
        member.full_clean()
    assert "shorter than 12 characters" in refusal.value.message_dict["is_staff"][0]

    member.set_password("Longer#Pass12")
    member.full_clean()
