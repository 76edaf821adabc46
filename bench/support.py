"""What the benchmarks share: a PostgreSQL database, a free port, the real server (alone, or one
instance behind nginx with its CPU and memory sampled), a church for the statement imports."""

import asyncio
import http.client
import os
import resource
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar
from urllib.error import URLError
from urllib.parse import urlsplit
from urllib.request import urlopen

REPO = Path(__file__).resolve().parent.parent
BACKEND = REPO / "backend"
RESULTS_DIR = REPO / "bench" / "results"
RENDER_NGINX = REPO / "scripts" / "render-nginx.sh"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
Answer = TypeVar("Answer")


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


# One instance behind nginx, and what it uses -----------------------------------------------------


@dataclass(frozen=True)
class Instance:
    """An app instance behind nginx: the address to load and the process trees to sample."""

    base: str
    roots: dict[str, int]  # "instance" (gunicorn's master) and "nginx" (its master)


def shared_cache_emptied(default_redis_url: str) -> None:
    """The instance's shared cache: Redis at REDIS_URL (else ``default_redis_url``), emptied of an
    earlier run's tokens and counters; nginx on this machine is its trusted proxy."""
    redis_url = os.environ.get("REDIS_URL", default_redis_url)
    os.environ.update({"REDIS_URL": redis_url, "TRUSTED_PROXIES": "127.0.0.1"})
    import redis

    redis.Redis.from_url(redis_url).flushdb()


@contextmanager
def instance_behind_nginx(env: dict[str, str], *, name: str, workers: int, threads: int) -> Iterator[Instance]:
    """One app instance as deployed (gunicorn ``workers`` x ``threads``, its log in a file) behind
    nginx as deployed, on free ports; sets ``SITE_URL`` in ``env``. Stops both at the end; the work
    folder (the gunicorn and nginx logs) is removed only when all went well."""
    port = free_port()
    env["SITE_URL"] = f"http://127.0.0.1:{port}"
    workdir = Path(tempfile.mkdtemp(prefix=f"harambee-bench-{name}-"))
    workdir.chmod(0o755)  # nginx's workers read their files in it
    (workdir / "static").mkdir()
    with (workdir / "gunicorn.log").open("wb") as log:
        server = start_server(port, env, workers=workers, threads=threads, log=log)
    try:
        with nginx(port, workdir / "static", workdir / "nginx") as base:
            if base is None:
                sys.exit("This benchmark needs nginx (bench/run.sh installs it).")
            nginx_pid = int((workdir / "nginx" / "nginx.pid").read_text())
            yield Instance(base=base, roots={"instance": server.pid, "nginx": nginx_pid})
    finally:
        server.terminate()
        server.wait(timeout=10)
    shutil.rmtree(workdir, ignore_errors=True)


def own_cpu_seconds() -> float:
    """The CPU seconds this process (the load generator) has used so far."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def process_tree(root: int) -> list[int]:
    """``root`` and its children (gunicorn's master and workers; nginx's master and workers)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == root:
                children.append(int(entry.name))
    return [root, *children]


def usage(pids: list[int]) -> tuple[float, int]:
    """CPU seconds used so far and resident memory in bytes, summed over ``pids``."""
    cpu, rss = 0.0, 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES
        except OSError:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime
    return cpu, rss


async def sample(
    roots: dict[str, int], stop: asyncio.Event, samples: dict[str, list[tuple[float, float, int]]]
) -> None:
    """Every second, the CPU seconds and memory of each process tree in ``roots``."""
    while not stop.is_set():
        for name, root in roots.items():
            cpu, rss = usage(process_tree(root))
            samples.setdefault(name, []).append((time.monotonic(), cpu, rss))
        await asyncio.sleep(1)


def resources(rows: list[tuple[float, float, int]]) -> dict[str, float]:
    """Mean and peak (over 10 s) CPU as a share of one core, peak resident memory."""
    (first_at, first_cpu, _), (last_at, last_cpu, _) = rows[0], rows[-1]
    windows = [
        (rows[i + 10][1] - rows[i][1]) / (rows[i + 10][0] - rows[i][0]) for i in range(0, len(rows) - 10, 10)
    ] or [0.0]
    return {
        "cpu_mean_percent_of_a_core": round(100 * (last_cpu - first_cpu) / (last_at - first_at), 1),
        "cpu_peak_10s_percent_of_a_core": round(100 * max(windows), 1),
        "memory_peak_mb": round(max(row[2] for row in rows) / 2**20, 1),
    }


# The statement imports' church ----------------------------------------------------------------------


def statement_church(*, bank: bool = False, pledges: int = 1_000) -> tuple[Any, Any, list[str]]:
    """A church of its own for one run of a statement import: a campaign paid into its connected
    paybill (``bank``: its bank account), the keyword TITHE, ``pledges`` pledges of Ksh 1,000,000.
    Answers the campaign, the account and the pledges' codes."""
    from accounts.models import User
    from campaigns.tests.factories import CampaignFactory, link_account
    from collection_accounts.models import AccountKeyword, CollectionAccount, CollectionAccountKind
    from pledges import codes
    from pledges.models import Pledge

    if bank:
        number = str(1_000_000_000 + secrets.randbelow(8_999_999_999))
        organizer = User.objects.create_user(email=f"bench.bank.{number}@example.com", password=None)
        campaign = CampaignFactory.create(organizer=organizer, goal=100_000_000)
        account = campaign.organization.collection_accounts.create(
            kind=CollectionAccountKind.BANK, bank_name="KCB", account_name="Bench church", account_number=number
        )
        link_account(campaign, account)
    else:
        paybill = str(700_000 + secrets.randbelow(299_999))
        organizer = User.objects.create_user(email=f"bench.statements.{paybill}@example.com", password=None)
        campaign = CampaignFactory.create(organizer=organizer, paybill=paybill, goal=100_000_000)
        account = CollectionAccount.objects.get(organization=campaign.organization, paybill_number=paybill)
    AccountKeyword.objects.create(organization=campaign.organization, keyword="TITHE")
    Pledge.objects.bulk_create(
        [
            Pledge(
                campaign=campaign,
                name=f"Pledger {n}",
                email=f"pledger{n}@example.com",
                phone=f"+2547{n:08d}",
                amount=1_000_000,
                code=codes.new_code(),
            )
            for n in range(pledges)
        ]
    )
    return campaign, account, list(Pledge.objects.filter(campaign=campaign).values_list("code", flat=True))


def timed(step: Callable[[], Answer]) -> tuple[Answer, float]:
    """``step``'s answer and the seconds it took."""
    started = time.perf_counter()
    answer = step()
    return answer, round(time.perf_counter() - started, 3)
