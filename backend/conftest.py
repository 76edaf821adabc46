"""Fixtures shared by every app's tests.

API tests go through ``ApiClient``: the Django test client with CSRF checks on, holding the
token the way the React app does (taken from session answers, sent as ``X-CSRFToken``).
"""

import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connections, transaction
from django.db.transaction import Atomic
from django.test import Client, TransactionTestCase
from django.utils import translation

from accounts.models import User
from accounts.tests.factories import UserFactory

SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}


class ApiClient(Client):
    def __init__(self) -> None:
        super().__init__(enforce_csrf_checks=True)
        self.csrf_token = ""
        self.get("/api/auth/session")

    def request(self, **request: Any) -> Any:
        if request["REQUEST_METHOD"] not in SAFE_METHODS:
            request.setdefault("HTTP_X_CSRFTOKEN", self.csrf_token)
        response = super().request(**request)
        # Like the React app, keep the token each session answer brings: it changes at sign-in.
        if response.get("Content-Type", "").startswith("application/json"):
            body = response.json()
            if isinstance(body, dict) and body.get("csrf_token"):
                self.csrf_token = body["csrf_token"]
        return response

    # The React app sends JSON: make it the default body type. (django-stubs gives Client and
    # RequestFactory clashing signatures for these, hence the ignores.)
    def post(self, path, data=None, content_type="application/json", follow=False, secure=False, **extra):  # type: ignore[override]
        return super().post(path, data, content_type, follow, secure, **extra)

    def patch(self, path, data="", content_type="application/json", follow=False, secure=False, **extra):  # type: ignore[override]
        return super().patch(path, data, content_type, follow, secure, **extra)


# Before pytest-django's hook (also tryfirst), whose stable sort by kind then keeps this order.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow come first among those of their kind (pytest-django then puts the transactional
    ones last, as Django does): a single slow test before the cases of a slow parametrized one, each of which
    is short. On two workers (`make test-backend`, pytest-xdist), the longest test, the ledger's stateful
    property test (minutes on a busy machine), thus starts at once on one worker while the other shares out
    the rest, instead of starting near the end and holding up the whole stage alone."""

    def order(item: pytest.Item) -> int:
        if item.get_closest_marker("slow") is None:
            return 2
        return 1 if hasattr(item, "callspec") else 0

    items.sort(key=order)


@pytest.fixture(autouse=True, scope="session")
def _atomic_blocks_know_their_thread() -> Iterator[None]:
    """Each ``transaction.atomic`` block notes the thread that opened it. Tests that use the live
    server share one in-memory SQLite connection between the test and the server's threads, so its
    open blocks may be another thread's; ``common.network`` then counts only this thread's when it
    refuses a network call made inside a transaction."""
    enter = Atomic.__enter__

    def enter_noting_thread(block: Atomic) -> None:
        block.opened_in_thread = threading.get_ident()  # type: ignore[attr-defined]
        enter(block)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Atomic, "__enter__", enter_noting_thread)
        yield


# Rows no test makes or removes: the content types and permissions migrate made once for the test database.
ROWS_MIGRATE_MADE = frozenset({"django_content_type", "auth_permission"})


def _empty_the_tables_a_test_filled(test: TransactionTestCase) -> None:
    """After a test that commits (``transactional_db``, ``live_server``), Django empties every table (``flush``:
    on PostgreSQL one ``TRUNCATE`` of all of them, which makes each table's files anew, filled or not) and then
    makes the content types and permissions again: about half a second a test, for 270 tests. Here only the
    tables that hold a row are emptied, by ``DELETE`` in one transaction (Django's foreign keys are deferred to
    its end), and what migrate made stays."""
    for alias in test._databases_names(include_mirrors=False):  # type: ignore[attr-defined]
        connection = connections[alias]
        tables = sorted(
            set(connection.introspection.django_table_names(only_existing=True, include_views=False))
            - ROWS_MIGRATE_MADE
        )
        # The names are the models' own tables, as Django lists them, quoted: no input reaches this SQL.
        quote = connection.ops.quote_name
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            cursor.execute(
                " UNION ALL ".join(
                    f"SELECT {index} WHERE EXISTS (SELECT 1 FROM {quote(table)})"  # noqa: S608
                    for index, table in enumerate(tables)
                )
            )
            for (index,) in cursor.fetchall():
                cursor.execute(f"DELETE FROM {quote(tables[index])}")  # noqa: S608


@pytest.fixture(autouse=True, scope="session")
def _transactional_tests_empty_only_the_filled_tables() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TransactionTestCase, "_fixture_teardown", _empty_the_tables_a_test_filled)
        yield


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """The in-memory cache outlives a test: rate-limit counters must not leak between tests."""
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """LocaleMiddleware activates each request's language and never resets it: a test that asked
    in Kiswahili must not leave the next test's services speaking it."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_chance_purge(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate limiter's table purge runs by chance (``common.ratelimit._purge_due``): never in tests,
    so query counts do not depend on luck (common/tests/test_ratelimit.py runs it on purpose)."""
    monkeypatch.setattr("common.ratelimit._purge_due", lambda: False)


@pytest.fixture
def make_api_client(db: None) -> Callable[..., ApiClient]:
    """A new browser; ``signed_in_as`` starts it with that user's session."""

    def make(signed_in_as: User | None = None) -> ApiClient:
        client = ApiClient()
        if signed_in_as is not None:
            client.force_login(signed_in_as)
        return client

    return make


@pytest.fixture
def api_client(make_api_client: Callable[..., ApiClient]) -> ApiClient:
    return make_api_client()


@pytest.fixture
def user(db: None) -> User:
    return UserFactory.create()


@pytest.fixture
def signed_in_client(make_api_client: Callable[..., ApiClient], user: User) -> ApiClient:
    return make_api_client(signed_in_as=user)


@pytest.fixture
def advance_cache_clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Moves the clock of the cache (and of the rate limiter) forward, so windows end without sleeping."""
    offset = 0.0
    clock = SimpleNamespace(time=lambda: time.time() + offset)
    monkeypatch.setattr("django.core.cache.backends.base.time", clock)
    monkeypatch.setattr("django.core.cache.backends.locmem.time", clock)
    monkeypatch.setattr("django.core.cache.backends.db.tz_now", lambda: datetime.fromtimestamp(clock.time(), tz=UTC))
    monkeypatch.setattr("common.ratelimit.time", clock)

    def advance(seconds: float) -> None:
        nonlocal offset
        offset += seconds

    return advance


@pytest.fixture(scope="session")
def live_server(django_db_setup, live_server):
    """pytest-django's live server, started only after the test database exists.

    Otherwise SQLite reports "table is locked" when a test that uses live_server runs first.
    """
    return live_server
