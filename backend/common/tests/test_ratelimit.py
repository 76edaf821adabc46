"""The attempt counters behind every rate limit.

They run on both stores a deployment may use: the counter table (without Redis) and Redis (when the
cache is Redis; skipped when no Redis server answers on localhost). PostgreSQL-only: parallel
attempts through HTTP (config/tests/test_rate_limits.py).
"""

import uuid
from pathlib import Path

import pytest
import yaml
from django.test import RequestFactory

from common import ratelimit
from common.errors import RateLimitedError
from common.models import RateLimitCounter

WINDOW = 900
LOCAL_REDIS = "redis://127.0.0.1:6379/0"


def redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(LOCAL_REDIS, socket_connect_timeout=0.5).ping())
    except Exception:
        return False


@pytest.fixture(params=["database", "redis"], autouse=True)
def counter_store(request, settings, db):
    if request.param == "redis":
        if not redis_answers():
            pytest.skip("no Redis server on localhost")
        # A prefix of its own: the test's keys never meet another run's.
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": LOCAL_REDIS,
                "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
            }
        }
    return request.param


@pytest.fixture
def database_only(counter_store):
    if counter_store != "database":
        pytest.skip("Redis keeps its own clock, which the test cannot move")


def record(identifier="grace@example.com", times=1, scope="sign-in"):
    for _ in range(times):
        ratelimit.record_attempt(scope=scope, identifiers=[identifier], window_seconds=WINDOW)


def limited(identifier="grace@example.com", scope="sign-in", limit=5):
    return ratelimit.is_limited(scope=scope, identifiers=[identifier], limit=limit)


def test_an_identifier_is_limited_once_it_has_used_the_limit():
    record(times=4)
    assert not limited()

    record()

    assert limited()


def test_any_limited_identifier_limits_the_request():
    record("10.0.0.1", times=5)

    assert ratelimit.is_limited(scope="sign-in", identifiers=["grace@example.com", "10.0.0.1"], limit=5)


def test_identifiers_are_compared_trimmed_and_in_any_case():
    record(" Grace@Example.com ", times=5)

    assert limited("grace@example.com")


def test_blank_identifiers_are_not_counted():
    ratelimit.record_attempt(scope="sign-in", identifiers=["", "10.0.0.1"], window_seconds=WINDOW)

    assert not ratelimit.is_limited(scope="sign-in", identifiers=[""], limit=1)


def test_scopes_are_counted_separately():
    record(times=5, scope="password-reset")

    assert not limited(scope="sign-in")


def test_reset_attempts_clears_the_counters():
    record(times=5)

    ratelimit.reset_attempts(scope="sign-in", identifiers=["grace@example.com"])

    assert not limited()


def test_the_limit_lasts_the_whole_window(advance_cache_clock, database_only):
    record(times=5)

    advance_cache_clock(WINDOW - 5)
    assert limited()

    advance_cache_clock(10)
    assert not limited()


def test_the_window_starts_at_the_first_attempt_and_is_not_extended_by_later_ones(advance_cache_clock, database_only):
    record()
    advance_cache_clock(WINDOW - 300)
    record(times=4)
    assert limited()

    advance_cache_clock(300 + 5)

    assert not limited()
    record()
    assert not limited()


def enforce(identifier="203.0.113.5", limit=(3, WINDOW), scope="pledge"):
    try:
        ratelimit.enforce(scope=scope, identifiers=[identifier], limit=limit)
    except RateLimitedError as refusal:
        return refusal
    return None


def test_enforce_lets_exactly_the_limit_through_and_counts_no_refused_attempt():
    answers = [enforce() for _ in range(6)]

    assert [answer is None for answer in answers] == [True, True, True, False, False, False]
    # Refused attempts were taken back: the counter holds the attempts let through.
    assert ratelimit.counters().peek([ratelimit._key("pledge", "203.0.113.5")])[0].count == 3


def test_a_refusal_says_when_the_window_ends():
    for _ in range(3):
        enforce()

    refusal = enforce()

    assert refusal is not None
    assert refusal.code == "rate_limited"
    assert WINDOW - 5 <= refusal.retry_after <= WINDOW


def test_an_attempt_refused_by_one_limit_uses_up_none_of_the_others():
    phone = ratelimit.Limit("stk-push-phone", "+254708374149", (1, WINDOW))
    address = ratelimit.Limit("stk-push-ip", "203.0.113.5", (5, WINDOW))
    ratelimit.enforce_all(limits=[phone, address])

    with pytest.raises(RateLimitedError):
        ratelimit.enforce_all(limits=[phone, address])

    assert ratelimit.counters().peek([ratelimit._key("stk-push-ip", "203.0.113.5")])[0].count == 1


def test_an_ipv6_client_is_counted_by_its_64_network():
    record("2001:db8:1:2::1", times=5)

    assert limited("2001:db8:1:2:ffff:ffff:ffff:9")
    assert limited("2001:DB8:1:2:0:0:0:1")
    assert not limited("2001:db8:1:3::1")


def test_an_ipv4_address_written_as_ipv6_is_the_ipv4_address():
    record("::ffff:203.0.113.9", times=5)

    assert limited("203.0.113.9")
    assert not limited("203.0.113.10")


def test_client_ip_is_the_remote_address(rf):
    assert ratelimit.client_ip(rf.get("/", REMOTE_ADDR="10.1.2.3")) == "10.1.2.3"


def request_from(remote_addr, forwarded_for=None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote_addr, **headers)


def test_the_client_address_is_the_peer_when_no_proxy_is_trusted(settings):
    settings.TRUSTED_PROXIES = []

    assert ratelimit.client_ip(request_from("203.0.113.7", forwarded_for="198.51.100.1")) == "203.0.113.7"


def test_behind_a_trusted_proxy_the_client_address_is_the_nearest_untrusted_forwarded_one(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]

    # The client wrote the first address itself; the load balancers appended the others.
    request = request_from("127.0.0.1", forwarded_for="198.51.100.1, 203.0.113.7, 10.1.2.3")

    assert ratelimit.client_ip(request) == "203.0.113.7"


def test_a_request_from_an_untrusted_peer_cannot_choose_its_address(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]

    assert ratelimit.client_ip(request_from("203.0.113.7", forwarded_for="198.51.100.1")) == "203.0.113.7"


def test_the_deployment_example_trusts_only_its_balancer():
    compose = yaml.safe_load((Path(__file__).resolve().parents[3] / "deploy" / "compose.yaml").read_text())
    trusted = compose["x-app"]["environment"]["TRUSTED_PROXIES"].split(",")
    balancer = compose["services"]["nginx"]["networks"]["default"]["ipv4_address"]

    assert trusted == [balancer]


def test_a_new_window_may_purge_the_ended_windows_of_the_database_store(monkeypatch, advance_cache_clock):
    if not isinstance(ratelimit.counters(), ratelimit.DatabaseCounters):
        pytest.skip("Redis lets its keys expire by themselves")
    enforce(identifier="198.51.100.1")
    advance_cache_clock(WINDOW + 1)
    monkeypatch.setattr("common.ratelimit._purge_due", lambda: True)

    enforce(identifier="198.51.100.2")

    assert RateLimitCounter.objects.filter(key=ratelimit._key("pledge", "198.51.100.1")).count() == 0
    assert RateLimitCounter.objects.filter(key=ratelimit._key("pledge", "198.51.100.2")).count() == 1
