from unittest import mock
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError
from django.test import RequestFactory

from accounts import services
from accounts.models import User, UserManager
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from accounts.tokens import password_reset_url
from common.errors import FieldValidationError, ServiceError

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Mpya#Siri2026"


def test_sign_up_racing_another_sign_up_for_the_same_email_reports_the_email_taken():
    request = RequestFactory().post("/api/signup")

    with (
        mock.patch.object(UserManager, "create_user", side_effect=IntegrityError),
        pytest.raises(FieldValidationError) as error,
    ):
        services.user_sign_up(
            request=request,
            first_name="Grace",
            last_name="Wanjiku",
            email="grace@example.com",
            phone="0712345678",
            id_number="12345678",
            password=DEFAULT_PASSWORD,
            confirm_password=DEFAULT_PASSWORD,
        )

    assert error.value.field_errors == {
        "email": "This email is already registered. Please use a different email address or sign in if you already have an account."
    }


def test_password_reset_url_points_at_the_reset_page_of_the_site(settings):
    settings.SITE_URL = "https://harambee.example"
    user = UserFactory.create()

    url = password_reset_url(user)

    parts = urlsplit(url)
    query = parse_qs(parts.query)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://harambee.example/reset-password"
    assert default_token_generator.check_token(user, query["token"][0])


def test_password_reset_confirm_refuses_a_deactivated_user():
    user = UserFactory.create()
    url = password_reset_url(user)
    user.is_active = False
    user.save()
    query = parse_qs(urlsplit(url).query)

    with pytest.raises(ServiceError) as error:
        services.password_reset_confirm(
            uid=query["uid"][0], token=query["token"][0], password=NEW_PASSWORD, confirm_password=NEW_PASSWORD
        )

    assert error.value.code == "invalid_token"
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


def test_profile_update_trims_names_and_allows_a_blank_avatar():
    user = UserFactory.create(avatar_url="https://example.com/old.png")

    services.user_profile_update(
        user=user, first_name="  Akinyi ", last_name=" Odhiambo ", phone="+254 722 000 111", avatar_url="  "
    )

    user.refresh_from_db()
    assert (user.first_name, user.last_name, user.phone, user.avatar_url) == (
        "Akinyi",
        "Odhiambo",
        "+254722000111",
        "",
    )


def test_profile_update_reports_every_broken_rule_at_once():
    user = UserFactory.create()

    with pytest.raises(FieldValidationError) as error:
        services.user_profile_update(user=user, first_name="", last_name="", phone="", avatar_url="nope")

    assert set(error.value.field_errors) == {"first_name", "last_name", "phone", "avatar_url"}
    assert User.objects.get(pk=user.pk).first_name == "Wanjiru"
