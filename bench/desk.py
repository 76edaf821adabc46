"""Benchmark: the ushers' desk on a harambee night (issue #32).

One app instance as deployed (gunicorn 2 workers x 4 threads, PostgreSQL, Redis as the shared cache)
behind nginx as deployed (deploy/nginx, rendered by scripts/render-nginx.sh), an active demo campaign
with an event opened at the start, then for --minutes --ushers desks enter --entries entries between
them, each desk a phone of its own (its own session, address and keep-alive connection):
- a third of the ushers are team members with the role usher, signed in (a session made for them, as
  the sign-in page would leave); the others volunteers signing in at POST /api/desk/sign-in with a
  passcode the owner issued for the event. Most phones are on the hall's Wi-Fi, behind one address;
  every fifth on its own mobile data;
- each desk enters its share at moments drawn at random over the duration (a queue at the table, then
  a lull), a mix of pledge cards (40 %), cash gifts (35 %) and M-Pesa gifts with their receipt codes
  (25 %), each with an idempotency key drawn when it is typed, as frontend/src/features/desk/queue.ts;
- a flaky network: 5 % of the entries are sent again once the answer came (the answer was lost), and 5 %
  twice at once (a retry racing the first delivery). The first delivery must answer 201, repeats 200.
Then it checks the books: every entry recorded exactly once (one DeskEntry per key, one pledge or
donation each, one payment per M-Pesa receipt, each desk's count and total from its own GET desk),
and counts every refusal (429, other 4xx, 5xx, network errors). It measures the entry latency (first
delivery) and the CPU and memory of the instance and of nginx; the machine's load average (the machine
may be shared: say so when reading the numbers). Writes bench/results/desk.json.

    .venv/bin/python bench/desk.py [--minutes 10] [--ushers 20] [--entries 300]
"""

import argparse
import asyncio
import json
import logging
import os
import platform
import random
import secrets
import string
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

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

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_desk"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/13"
WORKERS, THREADS = 2, 4
KINDS = [("pledge", 40), ("cash", 35), ("mpesa", 25)]
RESENT_AFTER_SHARE = 0.05  # the answer was lost: the desk sends the entry again later
RESENT_AT_ONCE_SHARE = 0.05  # a retry racing the first delivery
RECEIPT_ALPHABET = string.ascii_uppercase + string.digits
HALL_ADDRESS = "10.0.0.1"


@dataclass
class Entry:
    key: str
    kind: str
    amount: int
    usher: int
    receipt: str = ""
    statuses: list[int] = field(default_factory=list)
    latency_ms: float | None = None  # of the first delivery
    entry_id: int | None = None


@dataclass
class Usher:
    number: int
    address: str
    session_cookie: tuple[str, str] | None = None  # a signed-in team member: (name, value)
    passcode: str = ""  # a volunteer
    entries: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def entry_draw(usher: int) -> Entry:
    kind = random.choices([k for k, _ in KINDS], weights=[w for _, w in KINDS])[0]  # noqa: S311 - a mix
    amount = random.choice([200, 500, 1000, 2000, 5000, 10_000, 20_000])  # noqa: S311
    receipt = "".join(secrets.choice(RECEIPT_ALPHABET) for _ in range(10)) if kind == "mpesa" else ""
    return Entry(key=secrets.token_hex(16), kind=kind, amount=amount, usher=usher, receipt=receipt)


async def send(client: httpx.AsyncClient, path: str, token: str, entry: Entry, usher: Usher) -> int:
    body = {
        "idempotency_key": entry.key,
        "kind": entry.kind,
        "amount": entry.amount,
        "name": f"Mgeni {entry.key[:6]}" if entry.usher % 3 else "",
        "phone": f"07{secrets.randbelow(10**8):08d}" if entry.kind == "pledge" or entry.usher % 2 else "",
        "is_anonymous": entry.amount == 200,
        "mpesa_receipt": entry.receipt,
    }
    began = time.monotonic()
    try:
        response = await client.post(path, headers={"X-CSRFToken": token}, json=body)
    except httpx.HTTPError as error:
        usher.problems.append(f"network: {type(error).__name__}")
        entry.statuses.append(0)
        return 0
    if entry.latency_ms is None:
        entry.latency_ms = 1000 * (time.monotonic() - began)
    entry.statuses.append(response.status_code)
    if response.status_code in (200, 201):
        entry.entry_id = response.json()["id"]
    else:
        usher.problems.append(f"HTTP {response.status_code} {response.text[:200]}")
    return response.status_code


async def desk(base: str, event_id: int, campaign_id: int, usher: Usher, count: int, seconds: float) -> dict[str, Any]:
    """One desk: signs in, enters ``count`` entries at random moments over ``seconds``; answers its own
    GET desk at the end (its count and total as the server has them)."""
    loop = asyncio.get_running_loop()
    headers = {"X-Forwarded-For": usher.address, "Accept-Language": "sw"}
    async with httpx.AsyncClient(base_url=base, timeout=30, headers=headers) as client:
        if usher.session_cookie:
            client.cookies.set(*usher.session_cookie)
        token = (await client.get("/api/auth/session")).json()["csrf_token"]
        if usher.passcode:
            signed = await client.post(
                "/api/desk/sign-in", headers={"X-CSRFToken": token}, json={"passcode": usher.passcode}
            )
            if signed.status_code != 200:
                usher.problems.append(f"sign-in: HTTP {signed.status_code} {signed.text[:200]}")
                return {}
            token = (await client.get("/api/auth/session")).json()["csrf_token"]
        path = f"/api/events/{event_id}/desk-entries"
        start = loop.time()
        moments = sorted(random.random() * seconds for _ in range(count))  # noqa: S311 - a spread
        resends = []
        for moment in moments:
            await asyncio.sleep(max(0.0, start + moment - loop.time()))
            entry = entry_draw(usher.number)
            usher.entries.append(entry)
            luck = random.random()  # noqa: S311
            if luck < RESENT_AT_ONCE_SHARE:
                await asyncio.gather(send(client, path, token, entry, usher), send(client, path, token, entry, usher))
            else:
                await send(client, path, token, entry, usher)
                if luck < RESENT_AT_ONCE_SHARE + RESENT_AFTER_SHARE:
                    resends.append(asyncio.create_task(resend_later(client, path, token, entry, usher)))
        await asyncio.gather(*resends)
        answer = await client.get(f"/api/campaigns/{campaign_id}/desk")
        if answer.status_code != 200:
            usher.problems.append(f"desk: HTTP {answer.status_code}")
            return {}
        return answer.json()


async def resend_later(client: httpx.AsyncClient, path: str, token: str, entry: Entry, usher: Usher) -> None:
    await asyncio.sleep(1 + 2 * random.random())  # noqa: S311 - the queue's next try
    await send(client, path, token, entry, usher)


async def night(
    base: str, event_id: int, campaign_id: int, ushers: list[Usher], args: argparse.Namespace, roots: dict[str, int]
) -> tuple[list[dict[str, Any]], dict[str, list[tuple[float, float, int]]]]:
    stop = asyncio.Event()
    samples: dict[str, list[tuple[float, float, int]]] = {}
    sampling = asyncio.create_task(sample(roots, stop, samples))
    shares = [args.entries // len(ushers) + (1 if n < args.entries % len(ushers) else 0) for n in range(len(ushers))]
    desks = await asyncio.gather(
        *(
            desk(base, event_id, campaign_id, usher, share, args.minutes * 60)
            for usher, share in zip(ushers, shares, strict=True)
        )
    )
    stop.set()
    await sampling
    return list(desks), samples


def prepare(usher_count: int) -> tuple[int, int, list[Usher]]:
    """The demo data, a fresh event of the demo campaign opened now, its ushers: a third team members
    (role usher) with a session each, the others volunteers with a passcode each."""
    from datetime import timedelta

    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from campaigns.demo import ORGANIZER
    from campaigns.models import Campaign, CampaignStatus
    from desk.services import desk_passcode_issue
    from events.models import Event
    from events.services import event_close, event_create, event_open
    from organizations.models import Membership
    from organizations.roles import Role

    call_command("load_demo_data", stdout=open(os.devnull, "w"))  # noqa: SIM115 - closed at exit
    campaign = Campaign.objects.filter(organizer__email=ORGANIZER, status=CampaignStatus.ACTIVE).first()
    assert campaign is not None, "the demo data has no active campaign"
    organizer = campaign.organizer
    for event in Event.objects.filter(campaign=campaign, opened_at__isnull=False, closed_at__isnull=True):
        event_close(user=organizer, event_id=event.pk)
    now = timezone.now()
    event = event_create(
        user=organizer,
        campaign_id=campaign.pk,
        title="Desk bench night",
        starts_at=now,
        ends_at=now + timedelta(hours=3),
    )
    event_open(user=organizer, event_id=event.pk)
    ushers = []
    for number in range(usher_count):
        # Most phones are on the hall's Wi-Fi, behind its one address; every fifth on its own mobile data.
        mobile_data = "10." + ".".join(str(secrets.randbelow(256)) for _ in range(3))
        usher = Usher(number=number, address=mobile_data if number % 5 == 0 else HALL_ADDRESS)
        if number % 3 == 0:
            user, _ = User.objects.get_or_create(
                email=f"bench-usher-{number}@example.com", defaults={"first_name": f"Usher {number}"}
            )
            Membership.objects.get_or_create(
                organization=campaign.organization, user=user, defaults={"role": Role.USHER}
            )
            client = Client()
            client.force_login(user)
            usher.session_cookie = (settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value)
        else:
            _, usher.passcode = desk_passcode_issue(user=organizer, event_id=event.pk, volunteer=f"Volunteer {number}")
        ushers.append(usher)
    return campaign.pk, event.pk, ushers


def books(event_id: int, ushers: list[Usher], desks: list[dict[str, Any]]) -> dict[str, Any]:
    """What the database holds for the night against what the desks sent."""
    from django.db import connection
    from django.db.models import Count, Sum

    from desk.models import DeskEntry
    from payments.models import Payment

    sent = [entry for usher in ushers for entry in usher.entries]
    rows = list(
        DeskEntry.objects.filter(event_id=event_id).values(
            "idempotency_key", "kind", "amount", "pledge_id", "donation_id", "payment_id"
        )
    )
    by_key = Counter(row["idempotency_key"] for row in rows)
    recorded = {row["idempotency_key"]: row for row in rows}
    missing = [entry.key for entry in sent if entry.key not in recorded]
    wrong = [
        entry.key
        for entry in sent
        if entry.key in recorded
        and (recorded[entry.key]["kind"], recorded[entry.key]["amount"]) != (entry.kind, entry.amount)
    ]
    unlinked = [
        row["idempotency_key"]
        for row in rows
        if (row["pledge_id"] is None) == (row["kind"] == "pledge")
        or (row["kind"] != "pledge" and row["donation_id"] is None)
    ]
    donations_shared = (
        DeskEntry.objects.filter(event_id=event_id, donation__isnull=False)
        .values("donation_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    receipts = [entry.receipt for entry in sent if entry.receipt]
    payments_per_receipt = Counter(
        Payment.objects.filter(mpesa_receipt__in=receipts).values_list("mpesa_receipt", flat=True)
    )
    desk_mismatches = []
    for usher, answer in zip(ushers, desks, strict=True):
        expected = (len(usher.entries), sum(entry.amount for entry in usher.entries))
        if (answer.get("entries_count"), answer.get("entries_total")) != expected:
            desk_mismatches.append(
                {
                    "usher": usher.number,
                    "sent": expected,
                    "desk_says": (answer.get("entries_count"), answer.get("entries_total")),
                }
            )
    # Each pledger is told once (the pledge_created SMS with the code), however often the card came.
    pledge_ids = [row["pledge_id"] for row in rows if row["pledge_id"] is not None]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (args_kwargs -> 'kwargs' ->> 'pledge_id')::int, count(*) FROM django_tasks_database_dbtaskresult"
            " WHERE task_path = 'notifications.tasks.notify_pledge_recorded' AND (args_kwargs -> 'kwargs' ->> 'pledge_id')::int = ANY(%s)"
            " GROUP BY 1",
            [pledge_ids],
        )
        told = dict(cursor.fetchall())
    total = DeskEntry.objects.filter(event_id=event_id).aggregate(total=Sum("amount"))["total"] or 0
    return {
        "entries_typed": len(sent),
        "entries_recorded": len(rows),
        "entries_missing": len(missing),
        "entries_recorded_twice": sum(1 for n in by_key.values() if n > 1),
        "entries_recorded_unsent": len(set(recorded) - {entry.key for entry in sent}),
        "entries_recorded_wrong": len(wrong),
        "entries_without_their_pledge_or_gift": len(unlinked),
        "gifts_sharing_a_donation": donations_shared,
        "mpesa_receipts": len(receipts),
        "mpesa_receipts_without_one_payment": sum(1 for receipt in receipts if payments_per_receipt[receipt] != 1),
        "pledgers_not_told_exactly_once": sum(1 for pledge_id in pledge_ids if told.get(pledge_id) != 1),
        "total_typed_ksh": sum(entry.amount for entry in sent),
        "total_recorded_ksh": total,
        "desks_whose_count_or_total_differs": desk_mismatches,
    }


def report(
    args: argparse.Namespace,
    ushers: list[Usher],
    checked: dict[str, Any],
    samples: dict[str, list[tuple[float, float, int]]],
    generator_cpu: float,
    duration: float,
    load_before: tuple[float, float, float],
) -> dict[str, Any]:
    sent = [entry for usher in ushers for entry in usher.entries]
    statuses = Counter(status for entry in sent for status in entry.statuses)
    first = Counter(entry.statuses[0] for entry in sent if entry.statuses)
    repeats = [status for entry in sent for status in entry.statuses[1:]]
    # Racing copies: either may arrive first; one 201 and the rest 200 per entry is right.
    wrong_answers = [entry.key for entry in sent if sorted(entry.statuses) != [200] * (len(entry.statuses) - 1) + [201]]
    refusals = {
        "429": statuses[429],
        "other_4xx": sum(n for status, n in statuses.items() if 400 <= status < 500 and status != 429),
        "5xx": sum(n for status, n in statuses.items() if status >= 500),
        "network_errors": statuses[0],
        "sign_ins_refused": sum(1 for usher in ushers if any(p.startswith("sign-in") for p in usher.problems)),
    }
    problems = [problem for usher in ushers for problem in usher.problems]
    latencies = [entry.latency_ms for entry in sent if entry.latency_ms is not None]
    no_loss = (
        checked["entries_missing"] == 0 and checked["entries_recorded"] == checked["entries_typed"] == args.entries
    )
    no_duplicates = (
        checked["entries_recorded_twice"] == 0
        and checked["gifts_sharing_a_donation"] == 0
        and checked["mpesa_receipts_without_one_payment"] == 0
        and checked["entries_without_their_pledge_or_gift"] == 0
        and checked["pledgers_not_told_exactly_once"] == 0
        and checked["total_recorded_ksh"] == checked["total_typed_ksh"]
        and not checked["desks_whose_count_or_total_differs"]
    )
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "server": f"one instance: gunicorn {WORKERS} workers x {THREADS} threads (gthread), PostgreSQL, Redis cache; "
        "behind nginx as deployed",
        "minutes": args.minutes,
        "ushers": args.ushers,
        "ushers_signed_in": sum(1 for usher in ushers if usher.session_cookie),
        "ushers_by_passcode": sum(1 for usher in ushers if usher.passcode),
        "entries": args.entries,
        "by_kind": dict(Counter(entry.kind for entry in sent)),
        "requests": sum(statuses.values()),
        "resent": sum(1 for entry in sent if len(entry.statuses) > 1),
        "first_deliveries": {str(k): v for k, v in sorted(first.items())},
        "repeats": {str(k): v for k, v in sorted(Counter(repeats).items())},
        "entries_answered_wrongly": len(wrong_answers),
        "refusals": refusals,
        "problem_examples": sorted(set(problems))[:10],
        "books": checked,
        "entry_latency": latency_summary(latencies) if latencies else {},
        "goal_met": no_loss and no_duplicates and not any(refusals.values()) and not wrong_answers and not problems,
        "instance": resources(samples["instance"]),
        "nginx": resources(samples["nginx"]),
        "load_generator_cpu_mean_percent_of_a_core": round(100 * generator_cpu / duration, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10, help="how long the entries arrive (shorter: quick runs)")
    parser.add_argument("--ushers", type=int, default=20)
    parser.add_argument("--entries", type=int, default=300)
    args = parser.parse_args()

    shared_cache_emptied(DEFAULT_REDIS_URL)
    env = django_on_postgres(DEFAULT_DATABASE_URL)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per entry
    campaign_id, event_id, ushers = prepare(args.ushers)
    with instance_behind_nginx(env, name="desk", workers=WORKERS, threads=THREADS) as instance:
        load_before = os.getloadavg()
        started_cpu = own_cpu_seconds()
        started_at = time.monotonic()
        desks, samples = asyncio.run(night(instance.base, event_id, campaign_id, ushers, args, instance.roots))
    duration = time.monotonic() - started_at
    generator_cpu = own_cpu_seconds() - started_cpu
    results = report(args, ushers, books(event_id, ushers, desks), samples, generator_cpu, duration, load_before)
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "desk.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
