"""Fixed-window attempt counters kept in the shared cache (database or Redis).

Counting lives in the cache rather than process memory so that a limit of five
attempts holds across every worker and instance.
"""

import hashlib

from django.core.cache import cache


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
        # add() starts the window; incr() keeps its original expiry.
        if not cache.add(key, 1, timeout=window_seconds):
            try:
                cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.add(key, 1, timeout=window_seconds)


def reset_attempts(*, scope: str, identifiers: list[str]) -> None:
    cache.delete_many([_key(scope, identifier) for identifier in identifiers if identifier])


def client_ip(request) -> str:  # type: ignore[no-untyped-def]
    # Behind the documented nginx proxy REMOTE_ADDR is set from X-Real-IP by the proxy.
    return str(request.META.get("REMOTE_ADDR", ""))
