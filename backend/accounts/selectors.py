"""Reads for accounts: the session, and the account for its owner's download."""

from django.http import HttpRequest
from django.middleware.csrf import get_token

from accounts.models import User


def session_state(*, request: HttpRequest) -> dict[str, object]:
    """The signed-in user (or None) and a CSRF token bound to this browser's cookie."""
    user = request.user if request.user.is_authenticated else None
    return {"user": user if isinstance(user, User) else None, "csrf_token": get_token(request)}


def user_personal_data_export(*, user: User) -> dict[str, object]:
    """The account itself, for the user's download (``privacy.selectors.personal_data_export``)."""
    return {"account": user}
