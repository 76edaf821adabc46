"""A merchant's server for tests of the simulators: what they post (callbacks, C2B validations and
confirmations) arrives there over real HTTP."""

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from typing import Any

import pytest

from simulators.delivery import finish_pending_deliveries


@pytest.fixture
def receiver() -> Iterator[SimpleNamespace]:
    """A merchant's server on loopback: it keeps every body posted to it (STK callbacks, C2B validations and
    confirmations) by path, and accepts them all."""
    received: list[tuple[str, dict[str, Any]]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            received.append((self.path, json.loads(self.rfile.read(length))))
            answer = json.dumps({"ResultCode": 0, "ResultDesc": "Accepted"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield SimpleNamespace(url=f"http://127.0.0.1:{server.server_port}", received=received)
    server.shutdown()
    server.server_close()


def posted_to(receiver: SimpleNamespace, path: str) -> list[dict[str, Any]]:
    """The bodies posted to ``path``, once every callback the simulators scheduled has been answered."""
    finish_pending_deliveries()
    return [body for at, body in receiver.received if at == path]
