import pytest
from django.contrib.auth import authenticate
from django.db import IntegrityError

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory


@pytest.mark.parametrize(
    ("first_name", "email", "expected"),
    [
        ("Grace", "grace.w@example.com", "Grace"),
        ("  Grace  ", "grace.w@example.com", "Grace"),
        ("", "grace.w@example.com", "grace.w"),
        ("   ", "grace.w@example.com", "grace.w"),
    ],
)
def test_display_name_is_the_trimmed_first_name_else_the_email_local_part(first_name, email, expected):
    assert User(first_name=first_name, email=email).display_name == expected


def test_display_name_is_user_when_there_is_neither_a_first_name_nor_an_email():
    assert User(first_name="", email="").display_name == "User"


def test_full_name_joins_the_trimmed_first_and_last_names():
    assert User(first_name=" Grace ", last_name=" Wanjiku ").full_name == "Grace Wanjiku"
    assert User(first_name="Grace", last_name="").full_name == "Grace"


def test_is_admin_follows_is_staff():
    assert User(is_staff=True).is_admin is True
    assert User(is_staff=False).is_admin is False


@pytest.mark.django_db
def test_create_user_stores_the_email_trimmed_and_in_lower_case():
    user = User.objects.create_user("  Grace.W@Example.COM ", DEFAULT_PASSWORD)
    assert user.email == "grace.w@example.com"
    assert user.check_password(DEFAULT_PASSWORD)


@pytest.mark.django_db
def test_create_superuser_makes_a_staff_admin():
    admin = User.objects.create_superuser("boss@example.com", DEFAULT_PASSWORD)
    assert admin.is_staff and admin.is_superuser and admin.is_admin


@pytest.mark.django_db
def test_email_addresses_are_unique_whatever_their_case():
    UserFactory.create(email="grace@example.com")
    with pytest.raises(IntegrityError):
        UserFactory.create(email="GRACE@example.com")


@pytest.mark.django_db
def test_authentication_finds_the_user_whatever_the_email_case():
    user = UserFactory.create(email="grace@example.com")
    assert authenticate(username="Grace@Example.com", password=DEFAULT_PASSWORD) == user
