"""What the benchmarks share: a PostgreSQL database, a free port, the real server."""

import http.client
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO
from urllib.error import URLError
from urllib.parse import urlsplit
from urllib.request import urlopen

REPO = Path(__file__).resolve().parent.parent
BACKEND = REPO / "backend"
RESULTS_DIR = REPO / "bench" / "results"
RENDER_NGINX = REPO / "scripts" / "render-nginx.sh"


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


RENDERER = REPO / "frontend" / "dist-server" / "renderer.mjs"


def start_renderer(*, log: IO[bytes] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """The renderer of the app's first HTML (make build), on a free port: (process, its RENDERER_URL)."""
    if not RENDERER.exists():
        sys.exit("The renderer is not built: make build")
    renderer = subprocess.Popen(  # noqa: S603 - fixed tool and arguments
        ["node", str(RENDERER), "--port", "0"], stdout=subprocess.PIPE, stderr=log
    )
    assert renderer.stdout is not None
    address = renderer.stdout.readline().decode().strip()  # printed once it listens
    if not address.startswith("http://"):
        renderer.terminate()
        raise RuntimeError("the renderer did not start")
    return renderer, address


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


@contextmanager
def nginx(upstream_port: int, static_root: Path, workdir: Path) -> Iterator[str | None]:
    """nginx as deployed (deploy/nginx: static files, micro-cache) in front of the server on
    ``upstream_port``; yields its address, or None when nginx or the template is missing."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not RENDER_NGINX.exists() or not Path(binary).exists():
        yield None
        return
    port = free_port()
    # The worker processes run as an unprivileged user when we are root: let them write the cache.
    workdir.mkdir()
    workdir.chmod(0o755)
    (workdir / "cache").mkdir()
    (workdir / "cache").chmod(0o777)
    site = subprocess.run(  # noqa: S603 - our own script
        [str(RENDER_NGINX), str(port), str(static_root), f"127.0.0.1:{upstream_port}"],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "NGINX_CACHE_DIR": str(workdir / "cache"), "NGINX_ACCESS_LOG": str(workdir / "access.log")},
    ).stdout
    (workdir / "harambee.conf").write_text(site, encoding="utf-8")
    (workdir / "nginx.conf").write_text(
        # Debian's nginx.conf: a worker per core, 768 connections each.
        f"pid {workdir}/nginx.pid;\nerror_log {workdir}/error.log;\nworker_processes auto;\n"
        "events {\n    worker_connections 768;\n}\n"
        f"http {{\n    include /etc/nginx/mime.types;\n    include {workdir}/harambee.conf;\n}}\n",
        encoding="utf-8",
    )
    server = subprocess.Popen(  # noqa: S603 - fixed tool and arguments
        [binary, "-p", str(workdir), "-c", str(workdir / "nginx.conf"), "-g", "daemon off;"]
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                urlopen(f"{base}/api/campaign-categories", timeout=2).close()  # noqa: S310 - loopback
                break
            except (URLError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start: see {workdir}/error.log") from None
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)
