import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseForbidden
from django.middleware.csrf import CsrfViewMiddleware

from common.logs import path_for_log, request_id_var

access_logger = logging.getLogger("harambee.access")

REQUEST_ID_HEADER = "X-Request-ID"
# What we accept from the load balancer: UUIDs, nginx's $request_id, and the like. Anything
# else (too long, spaces, newlines that would forge log lines) is replaced with our own.
REQUEST_ID_PATTERN = re.compile(r"^[A-Za-z0-9._-]{8,128}$")


# Links that carry a signed token of their own, which is their protection: whoever holds the token
# may use it, CSRF token or not. The opt-out link of reminders, which mail programs POST to without
# any cookie (RFC 8058 one-click unsubscribe).
SIGNED_LINK_PATHS = ("/api/notifications/opt-out",)


def _csrf_protected_view(request: HttpRequest) -> HttpResponse:  # pragma: no cover - never called
    raise NotImplementedError


class ApiCsrfMiddleware(CsrfViewMiddleware):
    """CSRF checks for every unsafe request under /api/.

    django-ninja marks its views csrf-exempt and checks CSRF only on cookie-authenticated
    operations, which would leave sign-in, sign-up and other public forms unchecked. This
    runs Django's own check for all of them, except provider callbacks listed in
    ``API_CSRF_EXEMPT_PREFIXES`` (they come from payment providers, not browsers) and the
    ``SIGNED_LINK_PATHS``.
    """

    def process_view(
        self,
        request: HttpRequest,
        callback: Callable[..., Any],
        callback_args: tuple[Any, ...],
        callback_kwargs: dict[str, Any],
    ) -> HttpResponseForbidden | None:
        if (
            not request.path.startswith("/api/")
            or request.path.startswith(settings.API_CSRF_EXEMPT_PREFIXES)
            or request.path in SIGNED_LINK_PATHS
        ):
            return None
        return super().process_view(request, _csrf_protected_view, callback_args, callback_kwargs)


class RequestIdMiddleware:
    """Gives every request an id and writes one access log line when it is answered.

    The id is the load balancer's ``X-Request-ID`` when it looks like one, else a new UUID; it is
    on every log record written while the request runs (``common.logs.RequestIdFilter``) and
    on the response, so a user's report can be matched to the logs. The access line has the path
    without its query string: query strings may carry an e-mail address (gunicorn's own access
    log, which prints them, is off; see scripts/serve.sh).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        offered = request.headers.get(REQUEST_ID_HEADER, "")
        request_id = offered if REQUEST_ID_PATTERN.match(offered) else uuid.uuid4().hex
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            duration_ms = round((time.perf_counter() - started) * 1000, 1)
            response[REQUEST_ID_HEADER] = request_id
            path = path_for_log(request.path)
            access_logger.info(
                "%s %s %s %sms",
                request.method,
                path,
                response.status_code,
                duration_ms,
                extra={
                    "method": request.method,
                    "path": path,
                    "status": response.status_code,
                    "duration_ms": duration_ms,
                },
            )
            return response
        finally:
            request_id_var.reset(token)
