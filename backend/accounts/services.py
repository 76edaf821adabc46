"""Writes to accounts: sign-up, sign-in, passwords, profiles and deleting an account."""

from django.conf import settings
from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _

from accounts import sign_in_limits, validators
from accounts.models import User
from accounts.selectors import donations_made_by, notifications_sent_to, payments_made_by, pledges_made_by
from campaigns.models import Campaign, CampaignLike, CampaignStatus, Draft, WizardFeedback
from campaigns.services import campaign_close
from common import ratelimit
from common.errors import FieldValidationError, ServiceError
from common.languages import current_language
from feedback.models import Feedback
from grants.models import GrantApplication, OrganizationProfile
from notifications import tasks as notification_tasks
from notifications.services import notifications_personal_data_erase
from payments.services import payments_personal_data_erase
from pledges.services import givers_anonymise


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
    """Create an account, sign it in and queue the welcome e-mail."""
    ip = ratelimit.client_ip(request)
    ratelimit.refuse_if_limited(
        scope="sign-up",
        identifiers=[ip],
        limit=settings.RATE_LIMIT_SIGN_UP,
        message=_("Too many sign-up attempts. Please wait a while and try again."),
    )
    ratelimit.record_attempt(scope="sign-up", identifiers=[ip], window_seconds=settings.RATE_LIMIT_SIGN_UP[1])

    errors: dict[str, str] = {}
    if not first_name.strip():
        errors["first_name"] = _("First name is required")
    if not last_name.strip():
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

    try:
        with transaction.atomic():
            user = User.objects.create_user(
                email,
                password,
                first_name=first_name.strip(),
                last_name=last_name.strip(),
                phone=validators.normalize_kenyan_phone(phone),
                id_number=id_number.strip(),
                language=current_language(),
            )
    except IntegrityError:  # the same address signed up a moment ago
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"email": _email_taken()}
        ) from None
    transaction.on_commit(lambda: notification_tasks.notify_welcome.enqueue(user_id=user.pk))
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
    sign_in_limits.sign_in_refuse_if_locked(counters=counters)
    user = authenticate(request, username=email.strip(), password=password)
    if user is None:
        sign_in_limits.sign_in_failure_record(counters=counters)
        raise ServiceError(_("Invalid email or password."), code="invalid_credentials")
    assert isinstance(user, User)
    sign_in_limits.sign_in_success_record(counters=counters)
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
    # Only the user's id goes into the task queue: the link is made as the e-mail is sent.
    notification_tasks.notify_password_reset.enqueue(user_id=user.pk)


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
    if not first_name.strip():
        errors["first_name"] = _("First name is required")
    if not last_name.strip():
        errors["last_name"] = _("Last name is required")
    if message := validators.check_kenyan_phone(phone):
        errors["phone"] = message
    if message := validators.check_avatar_url(avatar_url):
        errors["avatar_url"] = message
    _raise_if_errors(errors)

    user.first_name = first_name.strip()
    user.last_name = last_name.strip()
    user.phone = validators.normalize_kenyan_phone(phone)
    user.avatar_url = avatar_url.strip()
    user.save(update_fields=["first_name", "last_name", "phone", "avatar_url", "updated_at"])
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


def user_delete(*, user: User, password: str) -> None:
    """Delete an account at its owner's request, after checking their password.

    The user row stays, deactivated and emptied of personal data (the e-mail becomes
    ``deleted-<id>@deleted.invalid``, the password unusable): campaigns, payments and
    subscriptions point at it, and the organizers' books and the money ledger must keep adding up.
    Signing in is impossible from then on, and every session ends (the password hash changed;
    the caller signs the current one out). Their campaigns are closed. Their pledges and donations
    stay, with their amounts and payments, under the name 'Deleted user' with no contact details;
    messages sent to them keep only that they were sent. Everything else they wrote (drafts,
    likes, feedback, grant profile and applications) is deleted. The last admin cannot leave.
    Failed attempts are limited like sign-ins (``RATE_LIMIT_SIGN_IN``).
    """
    identifiers = [f"user:{user.pk}"]
    ratelimit.refuse_if_limited(
        scope="account-delete",
        identifiers=identifiers,
        limit=settings.RATE_LIMIT_SIGN_IN,
        message=_("Too many failed attempts. Please wait 15 minutes and try again."),
    )
    if not password:
        _raise_if_errors({"password": _("Please enter your password to confirm.")})
    if not user.check_password(password):
        ratelimit.record_attempt(
            scope="account-delete", identifiers=identifiers, window_seconds=settings.RATE_LIMIT_SIGN_IN[1]
        )
        message = _("The password is incorrect. Your account was not deleted.")
        raise FieldValidationError(message, field_errors={"password": message})

    with transaction.atomic():
        # Every admin row is locked, so two last admins leaving at once cannot both go.
        admins = list(
            User.objects.select_for_update().filter(is_staff=True, is_active=True).values_list("pk", flat=True)
        )
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.is_staff and set(admins) <= {user.pk}:
            raise ServiceError(
                _("You are the only admin. Make another user an admin before deleting your account."),
                code="last_admin",
            )
        for campaign in Campaign.objects.filter(organizer=user).exclude(status=CampaignStatus.CLOSED):
            campaign_close(campaign=campaign, closed_by=user)

        pledge_ids = list(pledges_made_by(user=user).values_list("pk", flat=True))
        payment_ids = list(payments_made_by(user=user).values_list("pk", flat=True))
        log_ids = list(notifications_sent_to(user=user).values_list("pk", flat=True))
        givers_anonymise(
            pledge_ids=pledge_ids, donation_ids=list(donations_made_by(user=user).values_list("pk", flat=True))
        )
        payments_personal_data_erase(payment_ids=payment_ids)
        notifications_personal_data_erase(log_ids=log_ids, pledge_ids=pledge_ids)

        for model in (Draft, CampaignLike, WizardFeedback, Feedback, GrantApplication, OrganizationProfile):
            model.objects.filter(user=user).delete()
        user.groups.clear()
        user.user_permissions.clear()
        user.email = f"deleted-{user.pk}@deleted.invalid"
        user.first_name = user.last_name = user.phone = user.id_number = user.avatar_url = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()
