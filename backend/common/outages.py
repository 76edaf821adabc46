"""Answers for when the database cannot be reached: a 503 the client can show, never a 500.

A service writes inside ``transaction.atomic``, so a connection lost halfway through rolls the
whole change back: the client is told to try again, and trying again is safe.
"""

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30


def database_unavailable_body() -> dict[str, object]:
    return {
        "detail": _("Harambee is briefly unavailable. Nothing was saved; please try again in a moment."),
        "code": "service_unavailable",
        "field_errors": {},
    }


def database_unavailable_logged(request: HttpRequest, error: Exception) -> None:
    logger.error("Database unavailable during %s %s: %s", request.method, request.path, type(error).__name__)


class DatabaseUnavailableMiddleware:
    """Turns a lost database connection in a view into a 503: JSON under /api/ (the API's own
    handler in config/api.py usually answers first), a short page elsewhere (admin, campaign pages)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_UNAVAILABLE):
            return None
        database_unavailable_logged(request, exception)
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(database_unavailable_body(), status=503)
        else:
            # Rendered without the request: its context processors would ask the database for the user.
            response = HttpResponse(render_to_string("common/unavailable.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
