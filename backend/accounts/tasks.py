from django.conf import settings
from django.utils.translation import gettext as _
from django_tasks import task

from accounts.models import User
from common.email import send_templated_email


@task()
def send_welcome_email(*, user_id: int) -> None:
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    # A failure is logged by send_templated_email and never undoes the sign-up.
    send_templated_email(
        to=user.email,
        subject=_("Welcome to Harambee"),
        template="accounts/email/welcome",
        context={"user": user, "site_url": settings.SITE_URL},
    )


@task()
def send_password_reset_email(*, user_id: int, reset_url: str) -> None:
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    send_templated_email(
        to=user.email,
        subject=_("Reset your Harambee password"),
        template="accounts/email/password_reset",
        context={"user": user, "reset_url": reset_url, "site_url": settings.SITE_URL},
    )
