from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Router
from ninja.security import django_auth

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.auth import signed_in_user
from accounts.schemas import SessionOut
from common.schemas import ErrorOut
from privacy import selectors, services
from privacy.schemas import AccountDeleteIn, PersonalDataOut

router = Router(tags=["privacy"])

ERRORS = {400: ErrorOut, 403: ErrorOut, 422: ErrorOut, 429: ErrorOut}


@router.get("/profile/export", response={200: PersonalDataOut, 401: ErrorOut}, auth=django_auth)
def profile_export(request: HttpRequest, response: HttpResponse) -> dict[str, object]:
    """Everything the platform holds about the signed-in user, as a JSON file to download."""
    filename = f"harambee-my-data-{timezone.localdate():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return selectors.personal_data_export(user=signed_in_user(request))


@router.post("/profile/delete", response={200: SessionOut, 401: ErrorOut, **ERRORS}, auth=django_auth)
def account_delete(request: HttpRequest, payload: AccountDeleteIn) -> dict[str, object]:
    """Delete the signed-in user's account (see ``services.user_delete``) and sign out."""
    services.user_delete(user=signed_in_user(request), password=payload.password)
    account_services.user_sign_out(request=request)
    return account_selectors.session_state(request=request)
