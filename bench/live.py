"""Benchmark: a hall watching the big screen while the pledges come in (issue #31).

One app instance as deployed (gunicorn 2 workers x 4 threads, PostgreSQL, Redis as the shared cache)
behind nginx as deployed (deploy/nginx, rendered by scripts/render-nginx.sh, with Debian's worker
settings), an active demo campaign with an event opened at the start, then for --minutes:
- --viewers simulated screens (the phones in the hall and the projector), each over its own keep-alive
  connection, asking GET /api/campaigns/{id}/live every second with If-None-Match, as the page does
  (frontend/src/features/events/api.ts). A viewer is a coroutine speaking HTTP/1.1 on an asyncio
  stream, so a thousand of them fit in one process beside the server;
- --pledges web pledges (POST /api/pledges through nginx, each from an address, e-mail and phone of
  its own) spread evenly over the time.
It measures, for every pledge, the time from sending it to each viewer first showing it, and to the
last viewer showing it (the goal: p95 <= 2 s, no errors); requests and errors; the CPU and memory of
the instance (gunicorn's processes, from /proc), of nginx and of this load generator; the machine's
load average (the machine may be shared: say so when reading the numbers).
Writes bench/results/live.json.

    .venv/bin/python bench/live.py [--minutes 10] [--viewers 1000] [--pledges 300]
"""

import argparse
import asyncio
import json
import logging
import os
import platform
import random
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
from support import (
    RESULTS_DIR,
    django_on_postgres,
    instance_behind_nginx,
    latency_summary,
    own_cpu_seconds,
    resources,
    sample,
    shared_cache_emptied,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_live"
# The instance's shared cache (the campaign's version token lives there), a database of its own.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/12"
WORKERS, THREADS = 2, 4
POLL_SECONDS = 1.0  # LIVE_POLL_MS in frontend/src/features/events/api.ts
GOAL_P95_MS = 2000
# Every viewer has a screen before the first pledge, and sees the last one after it.
WARM_UP_SECONDS = 5
COOL_DOWN_SECONDS = 5


@dataclass
class Counts:
    requests: int = 0
    full: int = 0  # 200: the screen changed
    not_modified: int = 0  # 304
    errors: list[str] = field(default_factory=list)


@dataclass
class Viewer:
    """One screen: when it first showed each entry (loop time)."""

    shown_at: dict[str, float] = field(default_factory=dict)


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionResetError("the connection was closed")
    status = int(status_line.split()[1])
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        body = b""
        while size := int((await reader.readline()).split(b";")[0], 16):
            body += await reader.readexactly(size)
            await reader.readline()
        await reader.readline()
    else:
        body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers, body


async def watch(viewer: Viewer, base: str, path: str, stop: asyncio.Event, counts: Counts) -> None:
    """Poll like the page: every second, If-None-Match the ETag of the screen shown; a new screen's
    entries are 'shown' when its answer arrives. A lost connection is opened again at the next poll."""
    url = urlsplit(base)
    loop = asyncio.get_running_loop()
    etag = ""
    connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    next_poll = loop.time() + random.random() * POLL_SECONDS  # noqa: S311 - a spread, not a secret
    while not stop.is_set():
        await asyncio.sleep(max(0.0, next_poll - loop.time()))
        next_poll += POLL_SECONDS
        try:
            if connection is None:
                connection = await asyncio.open_connection(url.hostname, url.port)
            reader, writer = connection
            condition = f"If-None-Match: {etag}\r\n" if etag else ""
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: {url.netloc}\r\nAccept: application/json\r\n"
                f"Accept-Language: en\r\n{condition}\r\n".encode()
            )
            status, headers, body = await asyncio.wait_for(read_response(reader), timeout=10)
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as error:
            counts.errors.append(f"{type(error).__name__}: {error}")
            if connection is not None:
                connection[1].close()
            connection = None
            continue
        counts.requests += 1
        if status == 304:
            counts.not_modified += 1
        elif status == 200:
            counts.full += 1
            etag = headers.get("etag", "")
            now = loop.time()
            for entry in json.loads(body)["entries"]:
                viewer.shown_at.setdefault(entry["key"], now)
        else:
            counts.errors.append(f"HTTP {status}")
        if headers.get("connection", "").lower() == "close":  # nginx's keepalive_requests
            connection[1].close()
            connection = None
    if connection is not None:
        connection[1].close()


async def pledge(
    base: str, campaign_id: int, count: int, seconds: float, sent_at: dict[str, float], counts: Counts
) -> None:
    """``count`` web pledges spread over ``seconds``, each from an address, e-mail and phone of its own
    (as many people in a hall on their own phones would; the per-address and per-contact limits apply)."""
    loop = asyncio.get_running_loop()
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        token = (await client.get("/api/auth/session")).json()["csrf_token"]
        start = loop.time()
        for number in range(count):
            await asyncio.sleep(max(0.0, start + number * seconds / count - loop.time()))
            address = "10." + ".".join(str(secrets.randbelow(256)) for _ in range(3))
            began = loop.time()
            try:
                response = await client.post(
                    "/api/pledges",
                    headers={"X-CSRFToken": token, "X-Forwarded-For": address},
                    json={
                        "campaign_id": campaign_id,
                        "amount": 500 + secrets.randbelow(100) * 500,
                        "name": f"Giver {number}",
                        "email": f"giver-{secrets.token_hex(4)}@example.com",
                        "phone": f"07{secrets.randbelow(10**8):08d}",
                        "is_anonymous": number % 5 == 0,
                    },
                )
            except httpx.HTTPError as error:
                counts.errors.append(f"pledge: {type(error).__name__}")
                continue
            counts.requests += 1
            if response.status_code == 201:
                sent_at[f"pledge-{response.json()['id']}"] = began
            else:
                counts.errors.append(f"pledge: HTTP {response.status_code} {response.text[:200]}")


async def hall(
    base: str, campaign_id: int, args: argparse.Namespace, roots: dict[str, int]
) -> tuple[list[Viewer], dict[str, float], Counts, Counts, dict[str, list[tuple[float, float, int]]]]:
    stop = asyncio.Event()
    viewers = [Viewer() for _ in range(args.viewers)]
    polls, pledges = Counts(), Counts()
    sent_at: dict[str, float] = {}
    samples: dict[str, list[tuple[float, float, int]]] = {}
    path = f"/api/campaigns/{campaign_id}/live"
    watching = [asyncio.create_task(watch(viewer, base, path, stop, polls)) for viewer in viewers]
    sampling = asyncio.create_task(sample(roots, stop, samples))
    await asyncio.sleep(WARM_UP_SECONDS)
    await pledge(base, campaign_id, args.pledges, args.minutes * 60, sent_at, pledges)
    await asyncio.sleep(COOL_DOWN_SECONDS)
    stop.set()
    await asyncio.gather(*watching, sampling)
    return viewers, sent_at, polls, pledges, samples


def prepare() -> int:
    """The demo data, and a fresh event of the demo campaign opened now: the feed starts empty."""
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from campaigns.demo import ORGANIZER
    from campaigns.models import Campaign, CampaignStatus
    from events.models import Event
    from events.services import event_close, event_create, event_open

    call_command("load_demo_data", stdout=open(os.devnull, "w"))  # noqa: SIM115 - closed at exit
    campaign = (
        Campaign.objects.filter(organizer__email=ORGANIZER, status=CampaignStatus.ACTIVE, events__isnull=False)
        .distinct()
        .first()
    ) or Campaign.objects.filter(organizer__email=ORGANIZER, status=CampaignStatus.ACTIVE).first()
    assert campaign is not None, "the demo data has no active campaign"
    organizer = campaign.organizer
    for event in Event.objects.filter(campaign=campaign, opened_at__isnull=False, closed_at__isnull=True):
        event_close(user=organizer, event_id=event.pk)
    now = timezone.now()
    event = event_create(
        user=organizer, campaign_id=campaign.pk, title="Bench night", starts_at=now, ends_at=now + timedelta(hours=3)
    )
    event_open(user=organizer, event_id=event.pk)
    return campaign.pk


def report(
    args: argparse.Namespace,
    viewers: list[Viewer],
    sent_at: dict[str, float],
    polls: Counts,
    pledges: Counts,
    samples: dict[str, list[tuple[float, float, int]]],
    generator_cpu: float,
    load_before: tuple[float, float, float],
) -> dict[str, Any]:
    each: list[float] = []  # every (pledge, viewer): sent -> shown
    every: list[float] = []  # every pledge: sent -> shown by the last viewer
    missed = 0
    for key, began in sent_at.items():
        times = [viewer.shown_at[key] - began for viewer in viewers if key in viewer.shown_at]
        missed += len(viewers) - len(times)
        each += [1000 * t for t in times]
        if len(times) == len(viewers):
            every.append(1000 * max(times))
    errors = polls.errors + pledges.errors
    duration = args.minutes * 60 + WARM_UP_SECONDS + COOL_DOWN_SECONDS
    to_every_viewer = latency_summary(every) if every else {}
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "server": f"one instance: gunicorn {WORKERS} workers x {THREADS} threads (gthread), PostgreSQL, Redis cache; "
        "behind nginx as deployed (micro-cache)",
        "viewers": args.viewers,
        "minutes": args.minutes,
        "pledges_sent": args.pledges,
        "pledges_made": len(sent_at),
        "poll_seconds": POLL_SECONDS,
        "polls": polls.requests,
        "polls_per_second": round(polls.requests / duration),
        "polls_200": polls.full,
        "polls_304": polls.not_modified,
        "errors": len(errors),
        "error_examples": sorted(set(errors))[:10],
        "entries_a_viewer_missed": missed,
        "pledge_to_each_viewer": latency_summary(each) if each else {},
        "pledge_to_every_viewer": to_every_viewer,
        "goal_p95_ms": GOAL_P95_MS,
        "goal_met": bool(every)
        and not errors
        and not missed
        and to_every_viewer["p95_ms"] <= GOAL_P95_MS
        and len(sent_at) == args.pledges,
        "instance": resources(samples["instance"]),
        "nginx": resources(samples["nginx"]),
        "load_generator_cpu_mean_percent_of_a_core": round(100 * generator_cpu / duration, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10, help="how long the pledges arrive (shorter: quick runs)")
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--pledges", type=int, default=300)
    args = parser.parse_args()

    shared_cache_emptied(DEFAULT_REDIS_URL)
    env = django_on_postgres(DEFAULT_DATABASE_URL)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per pledge
    campaign_id = prepare()
    with instance_behind_nginx(env, name="live", workers=WORKERS, threads=THREADS) as instance:
        load_before = os.getloadavg()
        started_cpu = own_cpu_seconds()
        viewers, sent_at, polls, pledges, samples = asyncio.run(hall(instance.base, campaign_id, args, instance.roots))
    generator_cpu = own_cpu_seconds() - started_cpu
    results = report(args, viewers, sent_at, polls, pledges, samples, generator_cpu, load_before)
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "live.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
