"""Writes to accounts: sign-up, sign-in, passwords, profiles and emptying a deleted account."""

import secrets
import string
from functools import partial

from django.conf import settings
from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _

from accounts import sign_in_limits, signals, validators
from accounts.models import PhoneVerification, User
from common import challenges, ratelimit
from common.errors import FieldValidationError, ServiceError
from common.languages import current_language


def _email_taken() -> str:
    return _(
        "This email is already registered. Please use a different email address or sign in if you already have an account."
    )


def _raise_if_errors(errors: dict[str, str]) -> None:
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)


def _confirmation_error(password: str, confirm_password: str) -> str | None:
    if not confirm_password:
        return _("Please confirm your password")
    if password != confirm_password:
        return _("Passwords do not match")
    return None


def user_sign_up(
    *,
    request: HttpRequest,
    first_name: str,
    last_name: str,
    email: str,
    phone: str,
    id_number: str,
    password: str,
    confirm_password: str,
) -> User:
    """Create an account and sign it in; ``user_signed_up`` is sent once it is committed."""
    challenges.address_limit_enforce(
        scope="sign-up",
        address=ratelimit.client_ip(request),
        limit=settings.RATE_LIMIT_SIGN_UP,
        solution=request.headers.get(challenges.SOLUTION_HEADER, ""),
        message=_("Too many sign-up attempts. Please wait a while and try again."),
    )

    errors: dict[str, str] = {}
    first_name, last_name = validators.normalize_name(first_name), validators.normalize_name(last_name)
    if not first_name:
        errors["first_name"] = _("First name is required")
    if not last_name:
        errors["last_name"] = _("Last name is required")
    if message := validators.check_email(email):
        errors["email"] = message
    elif User.objects.filter(email__iexact=email.strip()).exists():
        errors["email"] = _email_taken()
    if message := validators.check_kenyan_phone(phone):
        errors["phone"] = message
    if message := validators.check_id_number(id_number):
        errors["id_number"] = message
    applicant = User(email=email.strip(), first_name=first_name.strip(), last_name=last_name.strip(), phone=phone)
    if message := validators.check_new_password(password, applicant):
        errors["password"] = message
    if message := _confirmation_error(password, confirm_password):
        errors["confirm_password"] = message
    _raise_if_errors(errors)
    ratelimit.enforce(
        scope="sign-up-phone",
        identifiers=[validators.normalize_kenyan_phone(phone)],
        limit=settings.RATE_LIMIT_SIGN_UP_PHONE,
        message=_("Too many accounts with this phone number. Please wait a while and try again."),
    )

    try:
        with transaction.atomic():
            user = User.objects.create_user(
                email,
                password,
                first_name=first_name,
                last_name=last_name,
                phone=validators.normalize_kenyan_phone(phone),
                id_number=id_number.strip(),
                language=current_language(),
            )
    except IntegrityError:  # the same address signed up a moment ago
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"email": _email_taken()}
        ) from None
    transaction.on_commit(partial(signals.user_signed_up.send, sender=User, user=user))
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def user_sign_in(*, request: HttpRequest, email: str, password: str) -> User:
    """Start a session. Failed attempts are limited as ``accounts/sign_in_limits.py`` explains."""
    errors: dict[str, str] = {}
    if message := validators.check_email(email):
        errors["email"] = message
    if not password:
        errors["password"] = _("Password is required")
    _raise_if_errors(errors)

    counters = sign_in_limits.sign_in_counters(request=request, email=email)
    counted = sign_in_limits.sign_in_attempt_count(counters=counters)
    user = authenticate(request, username=email.strip(), password=password)
    if user is None:
        sign_in_limits.sign_in_failure_record(counters=counters, counted=counted)
        raise ServiceError(_("Invalid email or password."), code="invalid_credentials")
    assert isinstance(user, User)
    sign_in_limits.sign_in_success_record(counters=counters, counted=counted)
    login(request, user)
    return user


def user_language_set(*, user: User | None, language: str) -> str:
    """Check a choice of language and keep it on the user's profile (visitors keep it in a cookie)."""
    if language not in dict(settings.LANGUAGES):
        message = _("Please choose English or Kiswahili.")
        raise FieldValidationError(message, field_errors={"language": message})
    if user is not None and user.language != language:
        user.language = language
        user.save(update_fields=["language", "updated_at"])
    return language


def user_sign_out(*, request: HttpRequest) -> None:
    logout(request)


def password_reset_request(*, request: HttpRequest, email: str) -> None:
    """E-mail a signed, single-use link to /reset-password."""
    if not email.strip():
        _raise_if_errors({"email": _("Please enter your email address")})
    if message := validators.check_email(email):
        _raise_if_errors({"email": message})

    identifiers = [User.normalize_email_address(email), ratelimit.client_ip(request)]
    ratelimit.enforce(
        scope="password-reset",
        identifiers=identifiers,
        limit=settings.RATE_LIMIT_PASSWORD_RESET,
        message=_("Too many password reset requests. Please wait a while and try again."),
    )
    user = User.objects.filter(email__iexact=email.strip(), is_active=True).first()
    if user is None:
        _raise_if_errors(
            {"email": _("This email is not registered. Please check your email address or create a new account.")}
        )
        return
    signals.password_reset_requested.send(sender=User, user=user)


@transaction.atomic
def password_reset_confirm(*, uid: str, token: str, password: str, confirm_password: str) -> User:
    """Set a new password from an e-mailed link. Every existing session of the user ends."""
    errors: dict[str, str] = {}
    if not password:
        errors["password"] = _("Please enter a new password")
    elif message := validators.check_new_password(password, None):
        errors["password"] = message
    if not errors and password != confirm_password:
        errors["confirm_password"] = _("Passwords do not match")
    _raise_if_errors(errors)

    try:
        user = User.objects.select_for_update().get(pk=int(urlsafe_base64_decode(uid).decode()), is_active=True)
    except (ValueError, TypeError, OverflowError, UnicodeDecodeError, User.DoesNotExist):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        raise ServiceError(
            _("This password reset link is invalid or has expired. Please request a new one."), code="invalid_token"
        )
    if message := validators.check_new_password(password, user):  # now also against their details
        _raise_if_errors({"password": message})
    # A new password hash invalidates the token (single use) and every session's auth hash.
    user.set_password(password)
    user.save(update_fields=["password", "password_is_admin_length", "updated_at"])
    return user


def user_profile_update(*, user: User, first_name: str, last_name: str, phone: str, avatar_url: str) -> User:
    errors: dict[str, str] = {}
    first_name, last_name = validators.normalize_name(first_name), validators.normalize_name(last_name)
    if not first_name:
        errors["first_name"] = _("First name is required")
    if not last_name:
        errors["last_name"] = _("Last name is required")
    if message := validators.check_kenyan_phone(phone):
        errors["phone"] = message
    if message := validators.check_avatar_url(avatar_url):
        errors["avatar_url"] = message
    _raise_if_errors(errors)

    user.first_name = first_name
    user.last_name = last_name
    phone = validators.normalize_kenyan_phone(phone)
    if phone != user.phone:
        user.phone_verified_at = None  # a new number is not proven yet
    user.phone = phone
    user.avatar_url = avatar_url.strip()
    user.save(update_fields=["first_name", "last_name", "phone", "phone_verified_at", "avatar_url", "updated_at"])
    return user


def _phone_checked(phone: str) -> str:
    if message := validators.check_kenyan_phone(phone):
        _raise_if_errors({"phone": message})
    return validators.normalize_kenyan_phone(phone)


@transaction.atomic
def phone_verification_start(*, user: User, phone: str) -> PhoneVerification:
    """Send a one-time code by SMS to ``phone`` (the account's own when empty) to prove it is the
    user's; it replaces any earlier code. Limited per number and per account (429), and per number a day."""
    phone = _phone_checked(phone or user.phone)
    ratelimit.enforce_all(
        limits=[
            ratelimit.Limit("phone-verification", phone, settings.RATE_LIMIT_PHONE_VERIFICATION),
            ratelimit.Limit("phone-verification-day", phone, settings.RATE_LIMIT_PHONE_VERIFICATION_DAY),
            ratelimit.Limit("phone-verification-account", str(user.pk), settings.RATE_LIMIT_PHONE_VERIFICATION),
        ],
        message=_("Too many codes sent to this number. Please wait a while and try again."),
    )
    PhoneVerification.objects.filter(user=user, verified_at__isnull=True).delete()
    verification = PhoneVerification.objects.create(user=user, phone=phone, code_hash="")
    code = "".join(secrets.choice(string.digits) for _digit in range(PhoneVerification.CODE_DIGITS))
    verification.code_hash = PhoneVerification.hash_code(phone=phone, code=code, salt=str(verification.pk))
    verification.save(update_fields=["code_hash"])
    # The code leaves only in the SMS (notifications listen); it is in no task's arguments.
    transaction.on_commit(partial(signals.phone_code_requested.send, sender=User, user=user, phone=phone, code=code))
    return verification


def phone_verification_confirm(*, user: User, code: str) -> User:
    """Check the code last sent to the user: right, and the number becomes the account's, proven
    (no other account keeps it proven). A wrong guess counts; after 5, or 10 minutes, a new code
    is needed."""
    with transaction.atomic():
        verification = PhoneVerification.objects.select_for_update().filter(user=user, verified_at__isnull=True).first()
        if verification is None or not verification.is_usable():
            raise ServiceError(
                _("This code has expired or was tried too often. Please ask for a new one."), code="code_expired"
            )
        right = verification.matches(code.strip())
        if not right:
            verification.tries += 1
            verification.save(update_fields=["tries"])
    if not right:  # raised after the commit, so that the wrong guess stays counted
        left = PhoneVerification.MAX_TRIES - verification.tries
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={"code": _("This code is not right. Tries left: %(left)d.") % {"left": left}},
        )
    with transaction.atomic():
        now = timezone.now()
        verification.verified_at = now
        verification.save(update_fields=["verified_at"])
        User.objects.filter(phone=verification.phone, phone_verified_at__isnull=False).exclude(pk=user.pk).update(
            phone_verified_at=None
        )
        user.phone = verification.phone
        user.phone_verified_at = now
        user.save(update_fields=["phone", "phone_verified_at", "updated_at"])
    return user


def user_password_change(
    *, request: HttpRequest, user: User, current_password: str, new_password: str, confirm_password: str
) -> None:
    """Change the password; this session stays signed in, every other one ends."""
    if not (current_password and new_password and confirm_password):
        raise ServiceError(_("All fields are required."), code="required")
    if new_password != confirm_password:
        raise ServiceError(_("New passwords do not match."), code="mismatch")
    if message := validators.check_changed_password(new_password, user):
        raise ServiceError(message, code="weak_password")
    if not user.check_password(current_password):
        raise ServiceError(_("Old password is incorrect."), code="wrong_password")
    user.set_password(new_password)
    user.save(update_fields=["password", "password_is_admin_length", "updated_at"])
    update_session_auth_hash(request, user)


def user_personal_data_erase(*, user: User) -> None:
    """Empty the account (the last step of ``privacy.services.user_delete``). The row stays,
    deactivated: campaigns, payments and subscriptions point at it. The e-mail becomes
    ``deleted-<id>@deleted.invalid`` and the password unusable, so signing in is impossible from
    then on and every session ends (the password hash changed)."""
    user.groups.clear()
    user.user_permissions.clear()
    user.email = f"deleted-{user.pk}@deleted.invalid"
    user.first_name = user.last_name = user.phone = user.id_number = user.avatar_url = ""
    user.phone_verified_at = None
    user.phone_verifications.all().delete()
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
