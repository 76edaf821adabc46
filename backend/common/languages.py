"""The language people use the site in: kept on users, pledges and donations so that the e-mails
and SMS they get later (from background tasks, with no request) are in it."""

from django.conf import settings
from django.http import HttpResponse
from django.utils import translation


def current_language() -> str:
    """The active language as one of ``settings.LANGUAGES`` (LocaleMiddleware chose it)."""
    return translation.get_supported_language_variant(translation.get_language() or settings.LANGUAGE_CODE)


def language_cookie_set(response: HttpResponse, language: str) -> None:
    """Remember ``language`` in this browser: LocaleMiddleware reads the cookie on every request."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite="Lax",
    )
