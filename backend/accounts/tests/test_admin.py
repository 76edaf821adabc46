"""The admin's sign-in page under the same limits on failures as the API's sign-in."""

import pytest
from django.test import Client

from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

ADDRESS = "127.0.18.50"


def admin_sign_in(client, email, password, address=ADDRESS):
    return client.post("/admin/login/", {"username": email, "password": password}, REMOTE_ADDR=address)


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


def test_an_admins_own_device_is_not_locked_out_of_the_admin_by_strangers_failures(settings):
    settings.RATE_LIMIT_SIGN_IN_ACCOUNT = (2, 600)
    staff = UserFactory.create(is_staff=True)
    admins_laptop = Client()
    assert admin_sign_in(admins_laptop, staff.email, DEFAULT_PASSWORD, "127.0.18.51").status_code == 302
    cookie = admins_laptop.cookies["harambee_admin_device"]
    assert (cookie["path"], cookie["httponly"]) == ("/admin/login/", True)
    admins_laptop.post("/admin/logout/")
    del admins_laptop.cookies["harambee_device"]  # a browser sends /admin/login/ only the admin's cookie
    for n in range(2, 6):
        admin_sign_in(Client(), staff.email, "not-the-password", f"127.0.18.{50 + n}")

    a_new_device = admin_sign_in(Client(), staff.email, DEFAULT_PASSWORD, "127.0.18.51")
    known_device = admin_sign_in(admins_laptop, staff.email, DEFAULT_PASSWORD, "127.0.18.51")

    assert "Too many failed sign-in attempts" in a_new_device.content.decode()
    assert known_device.status_code == 302
    assert admins_laptop.session["_auth_user_id"] == str(staff.pk)


def test_a_device_that_signed_in_through_the_app_is_known_at_the_admins_sign_in(settings):
    settings.RATE_LIMIT_SIGN_IN_ACCOUNT = (2, 600)
    staff = UserFactory.create(is_staff=True)
    admins_phone = Client()
    right = {"email": staff.email, "password": DEFAULT_PASSWORD}
    assert (
        admins_phone.post("/api/auth/signin", right, "application/json", REMOTE_ADDR="127.0.18.60").status_code == 200
    )
    assert admins_phone.cookies["harambee_admin_device"]["path"] == "/admin/login/"
    admins_phone.post("/api/auth/signout")
    del admins_phone.cookies["harambee_device"]
    for n in range(1, 5):
        admin_sign_in(Client(), staff.email, "not-the-password", f"127.0.18.{60 + n}")

    assert admin_sign_in(admins_phone, staff.email, DEFAULT_PASSWORD, "127.0.18.60").status_code == 302
