"""The checks of `make scale-test`, against the stack scripts/scale-test.sh starts: two app
instances (A and B) behind nginx, two task workers, PostgreSQL, Redis and an S3 server.

They talk HTTP to the instances, and read the shared database through the ORM with the instances'
own settings (the script exports them). Without the stack there is nothing to check, so a plain
`pytest` run does not even collect them.
"""

import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import django
import httpx
import pytest

STACK = os.environ.get("SCALE_NGINX_URL")
collect_ignore_glob = [] if STACK else ["test_*.py"]
if STACK:
    django.setup()

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


@dataclass(frozen=True)
class Stack:
    nginx: str
    a: str
    b: str
    nginx_access_log: str

    def upstreams_that_answered(self, path: str) -> set[str]:
        """The instances nginx's access log says answered requests for ``path``."""
        with open(self.nginx_access_log, encoding="utf-8") as log:
            return {
                field.removeprefix("upstream=")
                for line in log
                if f" {path} " in line
                for field in line.split()
                if field.startswith("upstream=")
            }


class Browser:
    """One visitor, as the React app behaves: a cookie jar (cookies belong to the host, not the
    port, so one jar serves every instance) and the CSRF token the session answers bring.

    ``address`` is the visitor's own IP address, sent as X-Forwarded-For: the instances trust
    loopback as a proxy, so each check gets rate-limit counters of its own.
    """

    def __init__(self, address: str) -> None:
        self.http = httpx.Client(timeout=30, headers={"X-Forwarded-For": address})
        self.csrf_token = ""

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        headers = kwargs.pop("headers", {})
        if method not in SAFE_METHODS:
            headers["X-CSRFToken"] = self.csrf_token
        response = self.http.request(method, url, headers=headers, **kwargs)
        if response.headers.get("Content-Type", "").startswith("application/json"):
            body = response.json()
            if isinstance(body, dict) and body.get("csrf_token"):
                self.csrf_token = body["csrf_token"]
        return response

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)

    def patch(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("PATCH", url, **kwargs)

    def sign_in(self, base_url: str, email: str, password: str) -> httpx.Response:
        self.get(f"{base_url}/api/auth/session")
        return self.post(f"{base_url}/api/auth/signin", json={"email": email, "password": password})

    def signed_in_as(self, base_url: str) -> str | None:
        user = self.get(f"{base_url}/api/auth/session").raise_for_status().json()["user"]
        return user["email"] if user else None


@pytest.fixture(scope="session")
def stack() -> Stack:
    return Stack(
        nginx=os.environ["SCALE_NGINX_URL"],
        a=os.environ["SCALE_A_URL"],
        b=os.environ["SCALE_B_URL"],
        nginx_access_log=os.environ["SCALE_NGINX_ACCESS_LOG"],
    )


@pytest.fixture
def browser() -> Iterator[Callable[[], Browser]]:
    """New visitors, each from an address of its own."""
    opened: list[Browser] = []

    def open_browser() -> Browser:
        # Random, so that counters left in Redis by an earlier run do not apply.
        opened.append(Browser("10." + ".".join(str(secrets.randbelow(256)) for _ in range(3))))
        return opened[-1]

    yield open_browser
    for visitor in opened:
        visitor.http.close()
