from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.security import django_auth

from accounts import selectors, services
from accounts.auth import request_user, signed_in_user
from accounts.models import User
from accounts.schemas import (
    LanguageIn,
    LanguageOut,
    MessageOut,
    PasswordChangeIn,
    PasswordResetConfirmIn,
    PasswordResetIn,
    PhoneCodeIn,
    PhoneVerificationIn,
    PhoneVerificationOut,
    PrivacyContactOut,
    ProfileIn,
    SessionOut,
    SignInIn,
    SignUpIn,
    UserOut,
)
from accounts.sign_in_limits import known_device_cookie_set
from common.languages import language_cookie_set
from common.schemas import ErrorOut

router = Router(tags=["accounts"])

ERRORS = {400: ErrorOut, 403: ErrorOut, 422: ErrorOut, 429: ErrorOut}


@router.get("/auth/session", response=SessionOut)
def session(request: HttpRequest) -> dict[str, object]:
    return selectors.session_state(request=request)


@router.post("/signup", response={201: SessionOut, **ERRORS})
def sign_up(request: HttpRequest, payload: SignUpIn) -> tuple[int, dict[str, object]]:
    services.user_sign_up(request=request, **payload.dict())
    return 201, selectors.session_state(request=request)


@router.post("/auth/signin", response={200: SessionOut, **ERRORS})
def sign_in(request: HttpRequest, response: HttpResponse, payload: SignInIn) -> dict[str, object]:
    user = services.user_sign_in(request=request, email=payload.email, password=payload.password)
    known_device_cookie_set(request=request, response=response, user=user)
    if user.language:  # the site switches to the language chosen on another device
        language_cookie_set(response, user.language)
    return selectors.session_state(request=request)


@router.put("/auth/language", response={200: LanguageOut, **ERRORS})
def language_set(request: HttpRequest, response: HttpResponse, payload: LanguageIn) -> dict[str, str]:
    """The language switch: kept in a cookie, and on the profile of a signed-in user."""
    language = services.user_language_set(user=request_user(request), language=payload.language)
    language_cookie_set(response, language)
    return {"language": language}


@router.post("/auth/signout", response={200: SessionOut, 403: ErrorOut})
def sign_out(request: HttpRequest) -> dict[str, object]:
    services.user_sign_out(request=request)
    return selectors.session_state(request=request)


@router.post("/auth/password-reset", response={202: MessageOut, **ERRORS})
def password_reset(request: HttpRequest, payload: PasswordResetIn) -> tuple[int, dict[str, str]]:
    services.password_reset_request(request=request, email=payload.email)
    return 202, {"detail": _("Check your email for a link to reset your password.")}


@router.post("/auth/password-reset/confirm", response={200: MessageOut, **ERRORS})
def password_reset_confirm(request: HttpRequest, payload: PasswordResetConfirmIn) -> dict[str, str]:
    services.password_reset_confirm(**payload.dict())
    return {"detail": _("Your password has been reset. You can now sign in.")}


@router.get("/profile", response={200: UserOut, 401: ErrorOut}, auth=django_auth)
def profile(request: HttpRequest) -> User:
    return signed_in_user(request)


@router.patch("/profile", response={200: UserOut, 401: ErrorOut, **ERRORS}, auth=django_auth)
def profile_update(request: HttpRequest, payload: ProfileIn) -> User:
    return services.user_profile_update(user=signed_in_user(request), **payload.dict())


@router.post("/profile/password", response={200: MessageOut, 401: ErrorOut, **ERRORS}, auth=django_auth)
def password_change(request: HttpRequest, payload: PasswordChangeIn) -> dict[str, str]:
    services.user_password_change(request=request, user=signed_in_user(request), **payload.dict())
    return {"detail": _("Password updated successfully.")}


@router.post(
    "/profile/phone-verification", response={202: PhoneVerificationOut, 401: ErrorOut, **ERRORS}, auth=django_auth
)
def phone_verification_start(request: HttpRequest, payload: PhoneVerificationIn) -> Status[PhoneVerificationOut]:
    """Text a 6-digit code to the number (the account's own when empty), valid 10 minutes."""
    verification = services.phone_verification_start(user=signed_in_user(request), phone=payload.phone)
    return Status(202, PhoneVerificationOut.from_orm(verification))


@router.post("/profile/phone-verification/confirm", response={200: UserOut, 401: ErrorOut, **ERRORS}, auth=django_auth)
def phone_verification_confirm(request: HttpRequest, payload: PhoneCodeIn) -> User:
    """The code that was texted: right, and the number is the account's, proven."""
    return services.phone_verification_confirm(user=signed_in_user(request), code=payload.code)


@router.get("/privacy-contact", response=PrivacyContactOut)
def privacy_contact(request: HttpRequest) -> dict[str, str]:
    """The data controller and where to send requests about personal data (the privacy notice)."""
    return {"controller": settings.DATA_CONTROLLER_NAME, "email": settings.PRIVACY_CONTACT_EMAIL}
