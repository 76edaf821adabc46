"""Fixed-window attempt counters shared by every worker and instance.

Counting is atomic, so parallel requests never get more through than sequential ones: with Redis as
the cache, ``INCR`` on a key that expires with its window; otherwise one SQL upsert on
``common.RateLimitCounter`` (``INSERT … ON CONFLICT DO UPDATE … RETURNING``, SQLite ≥ 3.35 and
PostgreSQL). ``enforce`` counts an attempt first and refuses it when the count passes the limit, taking
it back then: the counted value is the attempts let through in the window (for the limits on failures,
``record_attempt``, the failures). A window opens at its first attempt and is never extended.

An address is counted as what one subscriber holds: an IPv4 address, or the /64 network of an IPv6
one (every device of a home or phone gets addresses from its own /64, so counting single IPv6
addresses would give each attacker billions of fresh ones).
"""

import hashlib
import math
import random
import time
from dataclasses import dataclass
from ipaddress import IPv6Address, ip_address, ip_network
from typing import Protocol

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.http import HttpRequest
from django.utils.translation import gettext as _

from common.errors import RateLimitedError
from common.models import RateLimitCounter

# Expired counter rows are deleted by about one new window in this many (a cheap indexed delete).
PURGE_ONE_IN = 200


@dataclass(frozen=True)
class Window:
    """A counter's state: attempts so far and when its window ends (Unix time)."""

    count: int
    ends_at: float

    def seconds_left(self) -> int:
        return max(1, math.ceil(self.ends_at - time.time()))


@dataclass(frozen=True)
class Limit:
    """At most ``rate`` = (attempts, seconds) for ``identifier`` within ``scope``."""

    scope: str
    identifier: str
    rate: tuple[int, int]


class Counters(Protocol):
    def hit(self, key: str, window_seconds: int) -> Window: ...
    def peek(self, keys: list[str]) -> list[Window]: ...
    def undo(self, key: str, window: Window) -> None: ...
    def clear(self, keys: list[str]) -> None: ...


def _purge_due() -> bool:
    """Whether this new window also removes the ended ones: one in ``PURGE_ONE_IN``, so the table
    stays small without a job and without a delete on every request."""
    return random.randrange(PURGE_ONE_IN) == 0  # noqa: S311 - not a secret


class DatabaseCounters:
    """Counters in ``common_rate_limit_counter``: one statement counts and reads the window."""

    def hit(self, key: str, window_seconds: int) -> Window:
        now = time.time()
        table, key_, count_, ends = (
            connection.ops.quote_name(name) for name in (RateLimitCounter._meta.db_table, "key", "count", "ends_at")
        )
        with connection.cursor() as cursor:
            # A window that has ended starts again from this attempt. The names are ours, the values parameters.
            cursor.execute(
                f"INSERT INTO {table} ({key_}, {count_}, {ends}) VALUES (%s, 1, %s) "  # noqa: S608
                f"ON CONFLICT ({key_}) DO UPDATE SET "
                f"{count_} = CASE WHEN {table}.{ends} <= %s THEN 1 ELSE {table}.{count_} + 1 END, "
                f"{ends} = CASE WHEN {table}.{ends} <= %s THEN excluded.{ends} ELSE {table}.{ends} END "
                f"RETURNING {count_}, {ends}",
                [key, now + window_seconds, now, now],
            )
            count, ends_at = cursor.fetchone()
        if count == 1 and _purge_due():
            RateLimitCounter.objects.filter(ends_at__lte=now).delete()
        return Window(count=count, ends_at=ends_at)

    def peek(self, keys: list[str]) -> list[Window]:
        rows = RateLimitCounter.objects.filter(key__in=keys, ends_at__gt=time.time())
        return [Window(count=row.count, ends_at=row.ends_at) for row in rows]

    def undo(self, key: str, window: Window) -> None:
        RateLimitCounter.objects.filter(key=key, ends_at=window.ends_at, count__gt=0).update(count=F("count") - 1)

    def clear(self, keys: list[str]) -> None:
        RateLimitCounter.objects.filter(key__in=keys).delete()


# Takes one attempt back only while its window lasts (DECR alone would recreate an expired key without expiry).
_REDIS_UNDO = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0"


class RedisCounters:
    """Counters as Redis keys that expire with their window (the cache's own server and key prefix)."""

    def _client(self):  # type: ignore[no-untyped-def]
        return cache._cache.get_client(write=True)  # type: ignore[attr-defined]

    def hit(self, key: str, window_seconds: int) -> Window:
        name = cache.make_key(key)
        pipe = self._client().pipeline()  # MULTI … EXEC: the three run as one
        pipe.set(name, 0, ex=window_seconds, nx=True)
        pipe.incr(name)
        pipe.pttl(name)
        _created, count, ttl_ms = pipe.execute()
        return Window(count=int(count), ends_at=time.time() + max(ttl_ms, 0) / 1000)

    def peek(self, keys: list[str]) -> list[Window]:
        pipe = self._client().pipeline()
        for key in keys:
            pipe.get(cache.make_key(key))
            pipe.pttl(cache.make_key(key))
        answers = pipe.execute()
        now = time.time()
        return [
            Window(count=int(count), ends_at=now + ttl_ms / 1000)
            for count, ttl_ms in zip(answers[::2], answers[1::2], strict=True)
            if count is not None and ttl_ms > 0
        ]

    def undo(self, key: str, window: Window) -> None:
        self._client().eval(_REDIS_UNDO, 1, cache.make_key(key))

    def clear(self, keys: list[str]) -> None:
        if keys:
            self._client().delete(*[cache.make_key(key) for key in keys])


def counters() -> Counters:
    if str(settings.CACHES["default"]["BACKEND"]).endswith(".RedisCache"):
        return RedisCounters()
    return DatabaseCounters()


def counted_identity(identifier: str) -> str:
    """What is counted for ``identifier``: trimmed and in lower case; an IPv6 address as its /64."""
    identity = identifier.strip().lower()
    try:
        address = ip_address(identity)
    except ValueError:
        return identity
    if isinstance(address, IPv6Address):
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ip_network(f"{address}/64", strict=False))
    return identity


def _key(scope: str, identifier: str) -> str:
    digest = hashlib.sha256(counted_identity(identifier).encode()).hexdigest()[:32]
    return f"ratelimit:{scope}:{digest}"


def _keys(scope: str, identifiers: list[str]) -> list[str]:
    return [_key(scope, identifier) for identifier in identifiers if identifier]


def _refusal(message: str, code: str, retry_after: int) -> RateLimitedError:
    return RateLimitedError(
        message or _("Too many attempts. Please wait a few minutes and try again."), code=code, retry_after=retry_after
    )


def limited_for(*, scope: str, identifiers: list[str], limit: int) -> int:
    """Seconds until none of ``identifiers`` has used up ``limit`` any more (0: none has)."""
    windows = counters().peek(_keys(scope, identifiers))
    return max((window.seconds_left() for window in windows if window.count >= limit), default=0)


def is_limited(*, scope: str, identifiers: list[str], limit: int) -> bool:
    """True when any identifier has already used ``limit`` attempts in its window."""
    return limited_for(scope=scope, identifiers=identifiers, limit=limit) > 0


def record_attempt(*, scope: str, identifiers: list[str], window_seconds: int) -> list[Window]:
    """Count one attempt (a failure, for limits on failures) for each identifier."""
    store = counters()
    return [store.hit(key, window_seconds) for key in _keys(scope, identifiers)]


def refuse_if_limited(
    *, scope: str, identifiers: list[str], limit: tuple[int, int], message: str = "", code: str = "rate_limited"
) -> None:
    """Refuse (429, ``RateLimitedError``) when one of ``identifiers`` has used up ``limit``
    (attempts, window in seconds); counts nothing, for limits on failures only (sign-in)."""
    if seconds := limited_for(scope=scope, identifiers=identifiers, limit=limit[0]):
        raise _refusal(message, code, seconds)


@dataclass(frozen=True)
class Counted:
    """One attempt as counted (``enforce_all``), for ``take_back`` when it turns out not to count."""

    key: str
    window: Window


def take_back(counted: list[Counted]) -> None:
    """Uncount an attempt counted before it was judged (``enforce_all``) that was no failure: a guess
    is counted first, so parallel guesses never get more judged than the limit, and a right one
    (a passcode, a password) is then taken back."""
    store = counters()
    for attempt in counted:
        store.undo(attempt.key, attempt.window)


def enforce_all(*, limits: list[Limit], message: str = "", code: str = "rate_limited") -> list[Counted]:
    """Count this attempt against every limit; when any is passed, take it back from all and refuse (429).
    Answers what was counted (for ``take_back``)."""
    store = counters()
    counted: list[tuple[str, Window]] = []
    passed: list[Window] = []
    for limit in limits:
        if not limit.identifier:
            continue
        key = _key(limit.scope, limit.identifier)
        window = store.hit(key, limit.rate[1])
        counted.append((key, window))
        if window.count > limit.rate[0]:
            passed.append(window)
    if passed:
        for key, window in counted:
            store.undo(key, window)
        raise _refusal(message, code, max(window.seconds_left() for window in passed))
    return [Counted(key, window) for key, window in counted]


def enforce(
    *, scope: str, identifiers: list[str], limit: tuple[int, int], message: str = "", code: str = "rate_limited"
) -> list[Counted]:
    """Count this attempt, refusing it (429) when one of ``identifiers`` has used up ``limit``."""
    return enforce_all(
        limits=[Limit(scope, identifier, limit) for identifier in identifiers], message=message, code=code
    )


def reset_attempts(*, scope: str, identifiers: list[str]) -> None:
    counters().clear(_keys(scope, identifiers))


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
