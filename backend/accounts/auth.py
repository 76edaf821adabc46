"""Who is making a request, as the endpoints need it."""

from django.http import HttpRequest

from accounts.models import User


def request_user(request: HttpRequest) -> User | None:
    """The signed-in user, or None for a visitor."""
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None


def signed_in_user(request: HttpRequest) -> User:
    """The user of an endpoint guarded by ``auth=django_auth`` (ninja answered 401 otherwise)."""
    user = request_user(request)
    assert user is not None, "signed_in_user() on an endpoint without auth=django_auth"
    return user
