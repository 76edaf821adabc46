from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.middleware.csrf import CsrfViewMiddleware


def _csrf_protected_view(request: HttpRequest) -> HttpResponse:  # pragma: no cover - never called
    raise NotImplementedError


class ApiCsrfMiddleware(CsrfViewMiddleware):
    """CSRF checks for every unsafe request under /api/.

    django-ninja marks its views csrf-exempt and checks CSRF only on cookie-authenticated
    operations, which would leave sign-in, sign-up and other public forms unchecked. This
    runs Django's own check for all of them, except provider callbacks listed in
    ``API_CSRF_EXEMPT_PREFIXES`` (they come from payment providers, not browsers).
    """

    def process_view(
        self,
        request: HttpRequest,
        callback: Callable[..., Any],
        callback_args: tuple[Any, ...],
        callback_kwargs: dict[str, Any],
    ) -> HttpResponseForbidden | None:
        if not request.path.startswith("/api/") or request.path.startswith(settings.API_CSRF_EXEMPT_PREFIXES):
            return None
        return super().process_view(request, _csrf_protected_view, callback_args, callback_kwargs)
