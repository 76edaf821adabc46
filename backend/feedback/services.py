from django.conf import settings
from django.utils.translation import gettext as _

from accounts.models import User
from common import ratelimit
from common.errors import FieldValidationError
from feedback.models import Feedback

MESSAGE_MIN_LENGTH = 5
MESSAGE_MAX_LENGTH = 5000


def feedback_create(*, message: str, contact: str, page: str, user: User | None, client_ip: str) -> Feedback:
    """Keep a visitor's or user's feedback; at most ``RATE_LIMIT_FEEDBACK`` messages per address."""
    message = message.strip()
    if len(message) < MESSAGE_MIN_LENGTH:
        raise FieldValidationError(
            _("Please enter a message of at least 5 characters."),
            field_errors={"message": _("Please enter a message of at least 5 characters.")},
        )
    if len(message) > MESSAGE_MAX_LENGTH:
        raise FieldValidationError(
            _("Please keep your message under 5,000 characters."),
            field_errors={"message": _("Please keep your message under 5,000 characters.")},
        )
    # Only a message that would be kept counts.
    ratelimit.enforce(
        scope="feedback",
        identifiers=[client_ip],
        limit=settings.RATE_LIMIT_FEEDBACK,
        message=_("Too many messages. Please wait a while and try again."),
    )
    return Feedback.objects.create(message=message, contact=contact.strip()[:200], page=page[:300], user=user)


def feedback_personal_data_erase(*, user: User) -> None:
    """An account deletion (``privacy``): the feedback the user sent signed in is deleted."""
    Feedback.objects.filter(user=user).delete()
