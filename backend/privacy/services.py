"""Deleting an account at its owner's request: each app forgets what it holds about the user."""

from collections.abc import Callable

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import user_personal_data_erase
from campaigns.services import campaigns_personal_data_erase
from champions.services import champions_personal_data_erase
from common import ratelimit
from common.errors import FieldValidationError, ServiceError
from desk.services import desk_personal_data_erase
from feedback.services import feedback_personal_data_erase
from grants.services import grants_personal_data_erase
from notifications.outbox import notifications_personal_data_erase
from payments.services import payments_personal_data_erase
from pledges.services import pledges_personal_data_erase
from sms_keywords.services import sms_keywords_personal_data_erase
from ussd.services import ussd_personal_data_erase

# Each app's own erase, run in this order inside one transaction: from the top layer down, so an
# app may still read what a lower one holds (notifications find the messages sent to the user by
# the contact details on their pledges, before pledges forget them), and the account last, as
# every other row points at it. A new app holding personal data adds its erase here.
PERSONAL_DATA_ERASERS: tuple[Callable[..., None], ...] = (
    sms_keywords_personal_data_erase,
    ussd_personal_data_erase,
    desk_personal_data_erase,
    notifications_personal_data_erase,
    feedback_personal_data_erase,
    grants_personal_data_erase,
    champions_personal_data_erase,
    pledges_personal_data_erase,
    payments_personal_data_erase,
    campaigns_personal_data_erase,
    user_personal_data_erase,
)


def user_delete(*, user: User, password: str) -> None:
    """Delete an account at its owner's request, after checking their password.

    The user row stays, deactivated and emptied of personal data (the e-mail becomes
    ``deleted-<id>@deleted.invalid``, the password unusable): campaigns, payments and
    subscriptions point at it, and the organizers' books and the money ledger must keep adding up.
    Signing in is impossible from then on, and every session ends (the password hash changed;
    the caller signs the current one out). Their campaigns are closed. Their pledges and donations
    stay, with their amounts and payments, under the name 'Deleted user' with no contact details;
    messages sent to them keep only that they were sent. Everything else they wrote (drafts,
    likes, feedback, grant profile and applications) is deleted. The last admin cannot leave.
    Failed attempts are limited like sign-ins (``RATE_LIMIT_SIGN_IN``).
    """
    identifiers = [f"user:{user.pk}"]
    ratelimit.refuse_if_limited(
        scope="account-delete",
        identifiers=identifiers,
        limit=settings.RATE_LIMIT_SIGN_IN,
        message=_("Too many failed attempts. Please wait 15 minutes and try again."),
    )
    if not password:
        message = _("Please enter your password to confirm.")
        raise FieldValidationError(_("Please correct the errors below"), field_errors={"password": message})
    if not user.check_password(password):
        ratelimit.record_attempt(
            scope="account-delete", identifiers=identifiers, window_seconds=settings.RATE_LIMIT_SIGN_IN[1]
        )
        message = _("The password is incorrect. Your account was not deleted.")
        raise FieldValidationError(message, field_errors={"password": message})

    with transaction.atomic():
        # Every admin row is locked, so two last admins leaving at once cannot both go.
        admins = list(
            User.objects.select_for_update().filter(is_staff=True, is_active=True).values_list("pk", flat=True)
        )
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.is_staff and set(admins) <= {user.pk}:
            raise ServiceError(
                _("You are the only admin. Make another user an admin before deleting your account."),
                code="last_admin",
            )
        for erase in PERSONAL_DATA_ERASERS:
            erase(user=user)
