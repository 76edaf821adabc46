from django.utils.translation import gettext as _

from accounts.models import User
from common.errors import FieldValidationError
from feedback.models import Feedback

MESSAGE_MIN_LENGTH = 5
MESSAGE_MAX_LENGTH = 5000


def feedback_create(*, message: str, contact: str, page: str, user: User | None) -> Feedback:
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
    return Feedback.objects.create(message=message, contact=contact.strip()[:200], page=page[:300], user=user)
