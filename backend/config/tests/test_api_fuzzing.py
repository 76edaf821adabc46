"""schemathesis against the live OpenAPI schema (GET /api/openapi.json, through the WSGI app).

Every operation gets a few generated requests, as a visitor and as a signed-in user, with the
CSRF token a browser would send: no answer may be a 5xx, and every answer must match the schema.
The run is bounded and repeatable: a fixed seed, derandomized Hypothesis, no example database, and
the schema's examples plus a few generated requests per operation. (schemathesis's coverage phase,
which also sends every boundary value the schema allows, multiplies the requests by ten: run it by
hand with SCHEMATHESIS_COVERAGE=1.)
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from accounts.tests.factories import UserFactory
from config.wsgi import application

# no_cover: generated inputs find bugs, not lines (the example tests cover these), and tracing them costs
# more than the coverage of the rest of the suite (docs/development/tests.md).
# slow: six examples of every operation, as a visitor and signed in: the most CPU of any module.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("payment_providers"),
    pytest.mark.no_cover,
    pytest.mark.slow,
]

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)
schema.config.seed = 2026
if not os.environ.get("SCHEMATHESIS_COVERAGE"):
    schema.config.phases.update(phases=["examples", "fuzzing"])

CHECKS = [not_a_server_error, response_schema_conformance]


@contextmanager
def schemathesis_keeps_the_test_connection() -> Iterator[None]:
    # schemathesis calls the WSGI app directly, so each request starts and ends with
    # close_old_connections, which closes a PostgreSQL connection that is inside the test's
    # transaction. Django's test client detaches the same handler for the same reason (and attaches
    # it again after each of its own requests, so this wraps only schemathesis's call).
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


def browser_state(*, signed_in: bool) -> tuple[dict[str, str], dict[str, str]]:
    """The cookies and headers a browser sends: the CSRF cookie and token, and a session if signed in."""
    client = Client()
    if signed_in:
        client.force_login(UserFactory.create())
    token = client.get("/api/auth/session").json()["csrf_token"]
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    return cookies, {"X-CSRFToken": token}


@schema.parametrize()
@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "signed_in"])
@settings(
    max_examples=6,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_without_server_errors_and_as_documented(case, signed_in):
    # A fresh browser per example: a generated sign-out or password change must not leak into the next one.
    cookies, headers = browser_state(signed_in=signed_in)
    with schemathesis_keeps_the_test_connection():
        case.call_and_validate(cookies=cookies, headers=headers, checks=CHECKS)
