"""The attempt counters behind the sign-in, sign-up and password-reset limits.

They run on every cache backend a deployment may use: the tests cover the in-memory one
(tests) and the database one (the default without Redis).
"""

import pytest
from django.core.management import call_command
from django.test import RequestFactory

from common import ratelimit

WINDOW = 900


@pytest.fixture(params=["locmem", "database"], autouse=True)
def cache_backend(request, settings):
    if request.param == "database":
        request.getfixturevalue("db")
        settings.CACHES = {
            "default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "test_rate_limits"}
        }
        call_command("createcachetable")
    return request.param


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


def test_the_limit_lasts_the_whole_window(advance_cache_clock):
    record(times=5)

    advance_cache_clock(WINDOW - 5)
    assert limited()

    advance_cache_clock(10)
    assert not limited()


def test_the_window_starts_at_the_first_attempt_and_is_not_extended_by_later_ones(advance_cache_clock):
    record()
    advance_cache_clock(WINDOW - 300)
    record(times=4)
    assert limited()

    advance_cache_clock(300 + 5)

    assert not limited()
    record()
    assert not limited()


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
