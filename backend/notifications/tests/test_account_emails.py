"""The welcome and password-reset e-mails go through the notification log like every message."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.core.mail import EmailMultiAlternatives

from accounts.tests.factories import UserFactory
from notifications.messages import password_reset_notify, user_welcome_notify
from notifications.models import NotificationLog

pytestmark = pytest.mark.django_db


def test_the_welcome_email_is_logged_and_sent_with_a_plain_text_and_an_html_part(settings):
    settings.SITE_URL = "https://harambee.example"
    user = UserFactory.create(first_name="Grace", email="grace@example.com")

    user_welcome_notify(user_id=user.pk)

    log = NotificationLog.objects.get()
    assert (log.channel, log.template, log.recipient, log.status) == ("email", "email/welcome", user.email, "sent")
    [email] = mail.outbox
    assert email.subject == "Welcome to Harambee"
    assert isinstance(email, EmailMultiAlternatives)
    assert "Welcome to Harambee, Grace!" in email.body
    # Everyone gets it, ushers and treasurers who joined a team too: it tells no one to create campaigns.
    assert "Your dashboard shows your pledges and gifts, and the work of every team you join." in email.body
    assert "campaign" not in email.body.lower()
    assert "https://harambee.example/dashboard" in email.body
    html = str(email.alternatives[0][0])
    assert 'name="viewport"' in html
    assert 'href="https://harambee.example/dashboard"' in html


def test_the_password_reset_email_carries_the_link_unescaped_in_text_and_escaped_in_html(settings):
    settings.SITE_URL = "https://harambee.example"
    user = UserFactory.create()

    password_reset_notify(user_id=user.pk)

    [email] = mail.outbox
    assert email.subject == "Reset your Harambee password"
    assert isinstance(email, EmailMultiAlternatives)
    [link] = [line for line in email.body.splitlines() if line.startswith("https://harambee.example/reset-password?")]
    query = parse_qs(urlsplit(link).query)
    assert default_token_generator.check_token(user, query["token"][0])
    assert f'href="{link.replace("&", "&amp;")}"' in str(email.alternatives[0][0])


def test_the_message_log_keeps_no_working_reset_link_once_sent():
    user = UserFactory.create()

    password_reset_notify(user_id=user.pk)

    log = NotificationLog.objects.get()
    assert (log.template, log.status) == ("email/password_reset", "sent")
    [email] = mail.outbox
    token = parse_qs(urlsplit(email.body.split("/reset-password")[1].split()[0]).query)["token"][0]
    assert token not in log.body + log.html_body
    assert "/reset-password?[removed]" in log.body
    assert "/reset-password?[removed]" in log.html_body


def test_a_reset_link_stays_in_the_log_while_a_retry_may_still_send_it(settings):
    settings.EMAIL_BACKEND = "accounts.tests.test_api.BrokenMailServer"
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}

    password_reset_notify(user_id=UserFactory.create().pk)

    log = NotificationLog.objects.get()
    assert log.status == "queued"
    assert "/reset-password?uid=" in log.body


def test_an_account_email_the_mail_server_refuses_is_recorded_and_retried(settings):
    settings.EMAIL_BACKEND = "accounts.tests.test_api.BrokenMailServer"
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    from django_tasks import default_task_backend

    user = UserFactory.create()

    user_welcome_notify(user_id=user.pk)

    log = NotificationLog.objects.get()
    assert (log.status, log.attempts, log.error) == ("queued", 1, "the mail server is down")
    [retry] = default_task_backend.results  # type: ignore[attr-defined]
    assert retry.kwargs == {"log_id": log.pk}


def test_no_email_for_a_user_deleted_before_the_task_ran():
    user_welcome_notify(user_id=999_999)
    password_reset_notify(user_id=999_999)

    assert NotificationLog.objects.count() == 0
    assert mail.outbox == []
