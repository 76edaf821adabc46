"""The admin's sign-in page under the same limits on failures as the API's sign-in."""

import pytest
from django.test import Client

from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

ADDRESS = "127.0.18.50"


def admin_sign_in(client, email, password):
    return client.post("/admin/login/", {"username": email, "password": password}, REMOTE_ADDR=ADDRESS)


def test_ten_wrong_admin_passwords_in_a_row_meet_a_refusal_even_for_the_right_one():
    staff = UserFactory.create(is_staff=True)
    client = Client()
    for _ in range(10):
        assert admin_sign_in(client, staff.email, "not-the-password").status_code == 200

    answer = admin_sign_in(client, staff.email, DEFAULT_PASSWORD)

    assert answer.status_code == 200  # the form again, not the admin's index
    assert "Too many failed sign-in attempts" in answer.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_right_admin_password_signs_in_before_the_limit():
    staff = UserFactory.create(is_staff=True)
    client = Client()
    for _ in range(4):
        admin_sign_in(client, staff.email, "not-the-password")

    answer = admin_sign_in(client, staff.email, DEFAULT_PASSWORD)

    assert answer.status_code == 302
    assert client.session["_auth_user_id"] == str(staff.pk)
