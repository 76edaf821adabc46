"""What the benchmarks share: a PostgreSQL database, a free port, the real server."""

import http.client
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO
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
    port: int,
    env: dict[str, str],
    *,
    workers: int,
    threads: int = 1,
    probe: str = "/api/campaign-categories",
    log: IO[bytes] | None = None,
) -> subprocess.Popen[bytes]:
    """gunicorn serving the app on 127.0.0.1:<port>, returned once ``probe`` answers 200.

    ``log`` takes its output (a line per request under load) instead of this terminal."""
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
        stdout=log,
        stderr=log,
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


def django_on_postgres(default_database_url: str) -> dict[str, str]:
    """Set up Django in this process on the benchmark's PostgreSQL database, migrated; returns the
    environment a server started by ``start_server`` needs."""
    database_url = os.environ.get("DATABASE_URL", default_database_url)
    if not database_url.startswith("postgres"):
        sys.exit("This benchmark needs PostgreSQL: set DATABASE_URL=postgres://...")
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    os.environ.update(env)
    sys.path.insert(0, str(BACKEND))
    ensure_database(database_url)

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return env


def latency_summary(timings: list[float]) -> dict[str, float]:
    """Median, p95, p99 and max of request timings in milliseconds."""
    ordered = sorted(timings)

    def percentile(share: float) -> float:
        return round(ordered[max(0, round(share * len(ordered)) - 1)], 2)

    return {
        "median_ms": round(statistics.median(ordered), 2),
        "p95_ms": percentile(0.95),
        "p99_ms": percentile(0.99),
        "max_ms": round(ordered[-1], 2),
    }
