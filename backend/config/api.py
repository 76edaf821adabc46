"""The JSON API under /api/: one NinjaAPI, a router per domain, one error format."""

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, ValidationError

from accounts.api import router as accounts_router
from campaigns.api import router as campaigns_router
from campaigns.dashboard import router as dashboard_router
from common.errors import ServiceError
from feedback.api import router as feedback_router
from grants.api import router as grants_router
from notifications.api import router as notifications_router
from payments.api import router as payments_router
from pledges.api import router as pledges_router

api = NinjaAPI(title="Harambee API", version="1.0.0", urls_namespace="api")

api.add_router("/", accounts_router)
api.add_router("/", campaigns_router)
api.add_router("/", dashboard_router)
api.add_router("/", feedback_router)
api.add_router("/", grants_router)
api.add_router("/", notifications_router)
api.add_router("/", payments_router)
api.add_router("/", pledges_router)


@api.exception_handler(ServiceError)
def service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    return api.create_response(
        request,
        {"detail": exc.message, "code": exc.code, "field_errors": exc.field_errors},
        status=exc.status,
    )


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
