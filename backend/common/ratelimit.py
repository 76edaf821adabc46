"""Fixed-window attempt counters kept in the shared cache (database or Redis).

Counting lives in the cache rather than process memory so that a limit of five
attempts holds across every worker and instance.
"""

import hashlib
import time
from ipaddress import ip_address, ip_network

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _

from common.errors import RateLimitedError


def _key(scope: str, identifier: str) -> str:
    digest = hashlib.sha256(identifier.strip().lower().encode()).hexdigest()[:32]
    return f"ratelimit:{scope}:{digest}"


def is_limited(*, scope: str, identifiers: list[str], limit: int) -> bool:
    """True when any identifier has already used ``limit`` attempts in its window."""
    keys = [_key(scope, identifier) for identifier in identifiers if identifier]
    counts = cache.get_many(keys)
    return any(int(count) >= limit for count in counts.values())


def record_attempt(*, scope: str, identifiers: list[str], window_seconds: int) -> None:
    for identifier in identifiers:
        if not identifier:
            continue
        key = _key(scope, identifier)
        now = time.time()
        # The first attempt opens the window; its end is kept beside the counter.
        ends_at = now + window_seconds
        if not cache.add(f"{key}:ends", ends_at, timeout=window_seconds):
            ends_at = cache.get(f"{key}:ends", ends_at)
        remaining = max(1, int(ends_at - now))
        if not cache.add(key, 1, timeout=remaining):
            try:
                cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.add(key, 1, timeout=remaining)
            else:
                # The database cache's incr() saves with its default 5-minute timeout: restore the window's end.
                cache.touch(key, timeout=remaining)


def refuse_if_limited(*, scope: str, identifiers: list[str], limit: tuple[int, int], message: str = "") -> None:
    """Refuse (429, ``RateLimitedError``) when one of ``identifiers`` has used up ``limit``
    (attempts, window in seconds); counts nothing, for limits on failures only (sign-in)."""
    if is_limited(scope=scope, identifiers=identifiers, limit=limit[0]):
        raise RateLimitedError(
            message or _("Too many attempts. Please wait a few minutes and try again."), code="rate_limited"
        )


def enforce(*, scope: str, identifiers: list[str], limit: tuple[int, int], message: str = "") -> None:
    """Count this attempt, refusing it first (429) when one of ``identifiers`` has used up ``limit``."""
    refuse_if_limited(scope=scope, identifiers=identifiers, limit=limit, message=message)
    record_attempt(scope=scope, identifiers=identifiers, window_seconds=limit[1])


def reset_attempts(*, scope: str, identifiers: list[str]) -> None:
    keys = [_key(scope, identifier) for identifier in identifiers if identifier]
    cache.delete_many(keys + [f"{key}:ends" for key in keys])


def _is_trusted_proxy(address: str) -> bool:
    try:
        ip = ip_address(address)
    except ValueError:
        return False
    return any(ip in ip_network(proxy, strict=False) for proxy in settings.TRUSTED_PROXIES)


def client_ip(request: HttpRequest) -> str:
    """The address a request came from. Behind the load balancers named in ``TRUSTED_PROXIES``
    (deploy/nginx) every request would seem to come from them: then it is the nearest address in
    X-Forwarded-For that is not one of them (what the client wrote further left can be forged)."""
    address = str(request.META.get("REMOTE_ADDR", ""))
    if not _is_trusted_proxy(address):
        return address
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted_proxy(hop):
            return hop
    return hops[0] if hops else address
