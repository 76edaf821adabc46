"""The request id middleware and its access log line (common.middleware.RequestIdMiddleware)."""

import logging
import re

import pytest

from common.logs import RequestIdFilter, request_id_var

pytestmark = pytest.mark.django_db


def test_a_request_id_is_made_when_the_balancer_sends_none(client):
    response = client.get("/api/auth/session")

    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])
    assert client.get("/api/auth/session")["X-Request-ID"] != response["X-Request-ID"]


def test_the_balancers_request_id_is_kept(client):
    response = client.get("/api/auth/session", headers={"X-Request-ID": "3f2a9c1e-77aa-4b1c-9d2e-0123456789ab"})

    assert response["X-Request-ID"] == "3f2a9c1e-77aa-4b1c-9d2e-0123456789ab"


@pytest.mark.parametrize("offered", ["short", "has spaces in it", "x" * 129, "evil\nINFO forged line", "a;b=c<script>"])
def test_a_malformed_request_id_is_replaced(client, offered: str):
    response = client.get("/api/auth/session", headers={"X-Request-ID": offered})

    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])


def test_one_access_line_per_request_without_the_query_string(client, caplog: pytest.LogCaptureFixture):
    with caplog.at_level(logging.INFO, logger="harambee.access"):
        response = client.get(
            "/api/organizations?action=payment-status&user_email=wanjiru@example.com",
            headers={"X-Request-ID": "req-0001-abcd"},
        )

    [line] = [r for r in caplog.records if r.name == "harambee.access"]
    assert line.getMessage().startswith(f"GET /api/organizations {response.status_code} ")
    assert (line.method, line.path, line.status) == ("GET", "/api/organizations", response.status_code)  # type: ignore[attr-defined]
    assert line.duration_ms >= 0  # type: ignore[attr-defined]
    assert "wanjiru" not in caplog.text
    assert request_id_var.get() == "-"  # reset once the request is answered


@pytest.mark.parametrize(
    ("path", "logged"),
    [
        ("/api/pledges/K7Q2M9X", "/api/pledges/[code]"),
        ("/api/pledges/K7Q2M9X/stk-push", "/api/pledges/[code]/stk-push"),
        ("/pledges/K7Q2M9X", "/pledges/[code]"),
        ("/api/pledges/export.csv", "/api/pledges/export.csv"),
        ("/api/pledges/42/payments", "/api/pledges/42/payments"),
    ],
)
def test_a_pledge_code_in_the_path_is_masked_in_the_access_line(
    client, caplog: pytest.LogCaptureFixture, path: str, logged: str
):
    with caplog.at_level(logging.INFO, logger="harambee.access"):
        client.get(path)

    [line] = [r for r in caplog.records if r.name == "harambee.access"]
    assert line.path == logged  # type: ignore[attr-defined]
    assert "K7Q2M9X" not in caplog.text


def test_records_written_during_a_request_carry_its_id(client):
    stamped: list[logging.LogRecord] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            stamped.append(record)

    handler = Collect()
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("harambee.access")
    logger.addHandler(handler)
    try:
        client.get("/api/auth/session", headers={"X-Request-ID": "req-0002-abcd"})
    finally:
        logger.removeHandler(handler)

    assert [record.request_id for record in stamped] == ["req-0002-abcd"]  # type: ignore[attr-defined]
