"""What the benchmarks share: a PostgreSQL database, a free port, the real server."""

import http.client
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
BACKEND = REPO / "backend"
RESULTS_DIR = REPO / "bench" / "results"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def ensure_database(database_url: str) -> None:
    """Create the benchmark's PostgreSQL database when it does not exist yet."""
    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    maintenance = parts._replace(path="/postgres").geturl()
    with psycopg.connect(maintenance, autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            connection.execute(f'CREATE DATABASE "{name}"')


def start_server(
    port: int, env: dict[str, str], *, workers: int, threads: int = 1, probe: str = "/api/campaign-categories"
) -> subprocess.Popen[bytes]:
    """gunicorn serving the app on 127.0.0.1:<port>, returned once ``probe`` answers 200."""
    server = subprocess.Popen(  # noqa: S603 - our own interpreter and fixed arguments
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--log-level",
            "warning",
        ],
        cwd=BACKEND,
        env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", probe)
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("gunicorn did not start within 30 s")
