"""The JSON API under /api/: one NinjaAPI, a router per domain, one error format."""

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, ValidationError

from accounts.api import router as accounts_router
from analytics.api import router as analytics_router
from campaigns.api import router as campaigns_router
from champions.api import router as champions_router
from collection_accounts.api import router as collection_accounts_router
from common import outages
from common.api import router as common_router
from common.errors import RateLimitedError, ServiceError
from config.dashboard import router as dashboard_router
from desk.api import router as desk_router
from events.api import router as events_router
from feedback.api import router as feedback_router
from giving.api import router as giving_router
from grants.api import router as grants_router
from notifications.api import router as notifications_router
from organizations.api import router as organizations_router
from payments.airtel_api import router as airtel_router
from payments.api import router as payments_router
from pledges.airtel_api import router as pledge_airtel_router
from pledges.api import router as pledges_router
from privacy.api import router as privacy_router
from sms_keywords.api import router as sms_keywords_router
from spending.api import router as spending_router
from statements.api import router as statements_router
from ussd.api import router as ussd_router

logger = logging.getLogger(__name__)


def staff_only_in_production(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The API docs and schema (/api/docs, /api/openapi.json): open locally, for staff alone in
    production (others are sent to the admin's sign-in), so a deployment does not map itself for strangers."""
    staff_view = staff_member_required(view)

    @wraps(view)
    def docs_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return (staff_view if settings.IS_PRODUCTION else view)(request, *args, **kwargs)

    return docs_view


api = NinjaAPI(title="Harambee API", version="1.0.0", urls_namespace="api", docs_decorator=staff_only_in_production)

api.add_router("/", accounts_router)
api.add_router("/", airtel_router)
api.add_router("/", pledge_airtel_router)
api.add_router("/", analytics_router)
api.add_router("/", campaigns_router)
api.add_router("/", champions_router)
api.add_router("/", collection_accounts_router)
api.add_router("/", common_router)
api.add_router("/", dashboard_router)
api.add_router("/", desk_router)
api.add_router("/", events_router)
api.add_router("/", feedback_router)
api.add_router("/", grants_router)
api.add_router("/", notifications_router)
api.add_router("/", organizations_router)
api.add_router("/", payments_router)
api.add_router("/", pledges_router)
api.add_router("/", privacy_router)
api.add_router("/", sms_keywords_router)
api.add_router("/", spending_router)
api.add_router("/", statements_router)
api.add_router("/", giving_router)
api.add_router("/", ussd_router)


@api.exception_handler(ServiceError)
def service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    response = api.create_response(
        request,
        {"detail": exc.message, "code": exc.code, "field_errors": exc.field_errors},
        status=exc.status,
    )
    if isinstance(exc, RateLimitedError) and exc.retry_after:
        response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(RequestDataTooBig)
def body_too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    """A body over DATA_UPLOAD_MAX_MEMORY_SIZE (uploaded files have their own limit, campaigns/uploads.py)."""
    return api.create_response(
        request,
        {"detail": _("This request is too large."), "code": "too_large", "field_errors": {}},
        status=413,
    )


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def database_unavailable(request: HttpRequest, exc: OperationalError | InterfaceError) -> HttpResponse:
    """The database went away mid-request: 503, and the service's transaction left nothing half-written."""
    outages.database_unavailable_logged(request, exc)
    response = api.create_response(request, outages.database_unavailable_body(), status=503)
    response["Retry-After"] = str(outages.RETRY_AFTER_SECONDS)
    return response


@api.exception_handler(AuthenticationError)
def not_signed_in(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return api.create_response(
        request,
        {"detail": _("Please sign in to continue."), "code": "not_authenticated", "field_errors": {}},
        status=401,
    )


@api.exception_handler(ValidationError)
def invalid_request(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """Malformed input (wrong types, bad JSON) in the same shape as a rule broken in a service."""
    field_errors: dict[str, str] = {}
    for error in exc.errors:
        location = [str(part) for part in error.get("loc", ()) if part not in ("body", "payload", "query", "path")]
        field_errors[".".join(location) or "request"] = str(error.get("msg", _("Invalid value")))
    return api.create_response(
        request,
        {"detail": _("Please correct the errors below"), "code": "invalid", "field_errors": field_errors},
        status=422,
    )


@api.exception_handler(Exception)
def unexpected_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    """Anything no handler above expects: logged with its traceback, answered 500 in the usual shape
    (never Django's HTML page, which a client cannot read)."""
    logger.error("Unhandled error in %s %s", request.method, request.path, exc_info=exc)
    return api.create_response(
        request,
        {
            "detail": _("Something went wrong on our side. Please try again."),
            "code": "server_error",
            "field_errors": {},
        },
        status=500,
    )
