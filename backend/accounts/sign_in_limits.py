"""Limits on failed sign-ins (the API's and ``/admin/login/``) that an attacker cannot turn against a member.

A congregation signs in from one church Wi-Fi, and thousands of phones share one carrier address, so
failures are never counted per address alone. They are counted per (account, address), where the
person guessing is the only one they slow down, and per account from everywhere (``RATE_LIMIT_SIGN_IN``
and ``RATE_LIMIT_SIGN_IN_ACCOUNT``), which stops a guesser who changes addresses. A device that
signed in to the account before (through either) carries a signed cookie, sent only where passwords are
checked (``DEVICE_COOKIES``, so public pages stay cacheable), and has its own counter instead of both:
strangers' failures on the account never lock it out.

Using up a limit locks that counter for its window, doubled at each lock within a day (15 min, 30 min,
1 h, …, at most a day): the answer is a 429 with that ``Retry-After``. Nothing sleeps on the server:
a sleeping worker would be the denial of service.
"""

import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from accounts.models import User
from common import ratelimit
from common.errors import RateLimitedError

# A browser sends a cookie only below its path, and keeps one per name: the same value goes under a
# name per sign-in path, the API's and the admin's (config/urls.py), so each is known at both.
DEVICE_COOKIES = {"harambee_device": "/api/auth/", "harambee_admin_device": "/admin/login/"}
DEVICE_COOKIE_MAX_AGE = 60 * 60 * 24 * 365
DEVICE_COOKIE_SALT = "accounts.known-device"
# A shared family phone may sign in to a few accounts; the oldest is forgotten beyond this.
ACCOUNTS_PER_DEVICE = 5
LOCK_MAX_SECONDS = 60 * 60 * 24

PER_ADDRESS = "sign-in"
PER_ACCOUNT = "sign-in-account"
PER_DEVICE = "sign-in-device"


@dataclass(frozen=True)
class SignInCounters:
    """The failure counters one sign-in attempt is judged and counted by."""

    own: ratelimit.Limit  # this account from this address, or from this known device
    shared: tuple[ratelimit.Limit, ...]  # this account from everywhere (none for a known device)

    @property
    def all(self) -> tuple[ratelimit.Limit, ...]:
        return (self.own, *self.shared)


def _account_tag(account: str) -> str:
    """The account as the device cookie names it: not its e-mail address."""
    return hashlib.sha256(account.encode()).hexdigest()[:16]


def _device_cookie(request: HttpRequest) -> dict[str, object]:
    for name in DEVICE_COOKIES:
        try:
            value = signing.loads(request.COOKIES.get(name, ""), salt=DEVICE_COOKIE_SALT)
        except signing.BadSignature:
            continue
        if isinstance(value, dict):
            return value
    return {}


def _known_device(request: HttpRequest, account: str) -> str | None:
    cookie = _device_cookie(request)
    accounts = cookie.get("accounts")
    if isinstance(accounts, list) and _account_tag(account) in accounts:
        return str(cookie.get("device", "")) or None
    return None


def sign_in_counters(*, request: HttpRequest, email: str) -> SignInCounters:
    account = User.normalize_email_address(email)
    device = _known_device(request, account)
    if device:
        return SignInCounters(
            own=ratelimit.Limit(PER_DEVICE, f"{account} {device}", settings.RATE_LIMIT_SIGN_IN), shared=()
        )
    address = ratelimit.counted_identity(ratelimit.client_ip(request))
    return SignInCounters(
        own=ratelimit.Limit(PER_ADDRESS, f"{account} {address}", settings.RATE_LIMIT_SIGN_IN),
        shared=(ratelimit.Limit(PER_ACCOUNT, account, settings.RATE_LIMIT_SIGN_IN_ACCOUNT),),
    )


def _locked_error(seconds: int) -> RateLimitedError:
    minutes = -(-seconds // 60)
    message = ngettext(
        "Too many failed sign-in attempts. Please try again in %(minutes)d minute.",
        "Too many failed sign-in attempts. Please try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    return RateLimitedError(message, retry_after=seconds)


def sign_in_attempt_count(*, counters: SignInCounters) -> list[ratelimit.Counted]:
    """Refuse (429, with the lock's ``Retry-After``) when a counter is locked, else count this attempt
    as a failure before its password is checked: parallel guesses never get more passwords checked
    than the limits allow (one past a limit is refused here). Answers what was counted, for
    ``sign_in_failure_record`` or ``sign_in_success_record``."""
    seconds = max(
        ratelimit.limited_for(scope=f"{limit.scope}-lock", identifiers=[limit.identifier], limit=1)
        for limit in counters.all
    )
    if seconds:
        raise _locked_error(seconds)
    try:
        return ratelimit.enforce_all(limits=list(counters.all))
    except RateLimitedError as refusal:
        raise _locked_error(refusal.retry_after or 60) from None


def sign_in_failure_record(*, counters: SignInCounters, counted: list[ratelimit.Counted]) -> None:
    """A wrong password (already counted): the failure that used up a limit locks that counter,
    longer each time."""
    for limit, attempt in zip(counters.all, counted, strict=True):
        attempts, window_seconds = limit.rate
        if attempt.window.count != attempts:
            continue
        [locks] = ratelimit.record_attempt(
            scope=f"{limit.scope}-locks", identifiers=[limit.identifier], window_seconds=LOCK_MAX_SECONDS
        )
        # At least the failures' window, so the failures counted before the lock have expired when it ends.
        lock_seconds = min(window_seconds * 2 ** (locks.count - 1), LOCK_MAX_SECONDS)
        ratelimit.record_attempt(
            scope=f"{limit.scope}-lock", identifiers=[limit.identifier], window_seconds=lock_seconds
        )


def sign_in_success_record(*, counters: SignInCounters, counted: list[ratelimit.Counted]) -> None:
    """The right password was no failure: taken back from the account's count from everywhere, and
    this address's or device's failures cleared."""
    ratelimit.take_back(counted)
    ratelimit.reset_attempts(scope=counters.own.scope, identifiers=[counters.own.identifier])


def known_device_cookie_set(*, request: HttpRequest, response: HttpResponse, user: User) -> None:
    """Remember that this device signed in to ``user``'s account (signed cookies, sent only to the sign-ins)."""
    cookie = _device_cookie(request)
    device = str(cookie.get("device") or secrets.token_urlsafe(16))
    known = cookie.get("accounts")
    accounts = [tag for tag in known if isinstance(tag, str)] if isinstance(known, list) else []
    tag = _account_tag(User.normalize_email_address(user.email))
    accounts = [*[other for other in accounts if other != tag], tag][-ACCOUNTS_PER_DEVICE:]
    value = signing.dumps({"device": device, "accounts": accounts}, salt=DEVICE_COOKIE_SALT)
    for name, path in DEVICE_COOKIES.items():
        response.set_cookie(
            name,
            value,
            max_age=DEVICE_COOKIE_MAX_AGE,
            path=path,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
