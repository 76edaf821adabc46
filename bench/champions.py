"""Benchmark: a campaign with 2,000 champions and 50,000 gifts through them, on PostgreSQL through the real server.

Seeds once (later runs reuse the data) one campaign with 2,000 champions in 40 teams, each with a
numbered card, and 50,000 gifts attributed to them: 40,000 counted donations (paybill payments with
a champion's code) and 10,000 pledges made on their pages, partly paid. Starts gunicorn on a free
loopback port and times, as a visitor, over a bounded number of requests:

- GET /api/campaigns/{id}/champions, the leaderboards (overall and tonight), as read between changes
  (kept per campaign version) and as read right after every change (the version renewed before each
  request: the boards computed afresh each time, the worst case of a busy night);
- GET /api/campaigns/{id}/champions/{code}, a champion's page, cycling through 200 champions;
- GET /api/campaigns/{id}, the campaign's own page.

Writes bench/results/champions.json. Goal: p95 <= 50 ms for the page and the leaderboards.

    .venv/bin/python bench/champions.py [--requests 200]

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/h_bench_champions (created when missing).
"""

import argparse
import http.client
import json
import os
import random
import time
from datetime import timedelta

from support import RESULTS_DIR, django_on_postgres, free_port, latency_summary, start_server

RESULTS = RESULTS_DIR / "champions.json"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_champions"
CHAMPIONS = 2_000
TEAMS = 40
DONATIONS = 40_000
PLEDGES = 10_000
ORGANIZER_EMAIL = "bench.champions.organizer@example.com"
WORKERS = 2
GOAL_P95_MS = 50.0


def seed() -> bool:
    """The campaign, its champions and their gifts, unless there already; answers whether made now."""
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User
    from campaigns.models import Campaign
    from campaigns.tests.factories import CampaignFactory
    from champions import codes
    from champions.models import Attribution, Champion, HarambeeCard, Team
    from champions.services import champions_totals_recount
    from payments.models import Payment
    from pledges.models import Donation, Pledge, PledgeChannel

    if User.objects.filter(email=ORGANIZER_EMAIL).exists():
        return False
    rng = random.Random(51)
    now = timezone.now()
    with transaction.atomic():
        organizer = User.objects.create_user(email=ORGANIZER_EMAIL, password=None, first_name="Bench")
        campaign = CampaignFactory.create(organizer=organizer, paybill="600151", goal=100_000_000)
        teams = Team.objects.bulk_create([Team(campaign=campaign, name=f"Jumuiya {n}") for n in range(TEAMS)])
        wanted: set[str] = set()
        while len(wanted) < CHAMPIONS:
            wanted.add(codes.new_code())
        champions = Champion.objects.bulk_create(
            [
                Champion(
                    campaign=campaign,
                    team=teams[n % TEAMS] if n % 5 else None,
                    name=f"Champion {n}",
                    goal=50_000,
                    code=code,
                    on_leaderboard=n % 17 != 0,
                )
                for n, code in enumerate(sorted(wanted))
            ]
        )
        HarambeeCard.objects.bulk_create(
            [HarambeeCard(campaign=campaign, champion=champion, number=n + 1) for n, champion in enumerate(champions)]
        )
        payments = Payment.objects.bulk_create(
            [
                Payment(
                    provider=Payment.Provider.MPESA_C2B,
                    purpose=Payment.Purpose.DONATION,
                    status=Payment.Status.SUCCEEDED,
                    amount=rng.randint(50, 5_000),
                    campaign=campaign,
                    organization_id=campaign.organization_id,
                    mpesa_receipt=f"SLB{n:07d}",
                    counted_at=now - timedelta(hours=rng.randint(0, 24 * 30)),
                )
                for n in range(DONATIONS)
            ],
            batch_size=2_000,
        )
        donations = Donation.objects.bulk_create(
            [
                Donation(
                    campaign=campaign,
                    payment=payment,
                    amount=payment.amount,
                    is_anonymous=True,
                    counted_at=payment.counted_at,
                )
                for payment in payments
            ],
            batch_size=2_000,
        )
        pledges = Pledge.objects.bulk_create(
            [
                Pledge(
                    campaign=campaign,
                    name=f"Pledger {n}",
                    email=f"pledger{n}@example.com",
                    phone=f"+2547{n:08d}",
                    channel=PledgeChannel.WEB,
                    amount=(amount := rng.randint(500, 20_000)),
                    paid_amount=rng.choice([0, amount // 2, amount]),
                    code=f"B{n:06d}",
                )
                for n in range(PLEDGES)
            ],
            batch_size=2_000,
        )
        Attribution.objects.bulk_create(
            [Attribution(champion=rng.choice(champions), donation=donation) for donation in donations]
            + [Attribution(champion=rng.choice(champions), pledge=pledge) for pledge in pledges],
            batch_size=2_000,
        )
        Campaign.objects.filter(pk=campaign.pk).update(raised_total=sum(p.amount for p in payments))
        # Made in bulk, past the services and their receivers: the running totals counted once, as the
        # migration that added them counted those already there.
        champions_totals_recount(champion_ids=[champion.pk for champion in champions])
    return True


def timed_get(port: int, path: str) -> float:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    started = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    elapsed_ms = (time.perf_counter() - started) * 1000
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}: {body[:200]!r}")
    return elapsed_ms


def measure(port: int, paths: list[str], requests: int, before_each=None) -> dict[str, float]:  # type: ignore[no-untyped-def]
    for path in paths * 2:  # warm up both workers, their database connections and their renders
        timed_get(port, path)
    timings = []
    for n in range(requests):
        if before_each is not None:
            before_each()
        timings.append(timed_get(port, paths[n % len(paths)]))
    return latency_summary(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    env = django_on_postgres(DEFAULT_DATABASE_URL)
    from django.core.management import call_command

    call_command("createcachetable", verbosity=0)  # the shared cache without Redis: the version tokens
    started = time.perf_counter()
    made = seed()
    print(f"{'seeded' if made else 'reused'} the data in {time.perf_counter() - started:.1f} s")

    from django.db import connection

    from campaigns.caching import campaign_changed
    from campaigns.models import Campaign
    from champions.models import Champion

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    campaign = Campaign.objects.get(organizer__email=ORGANIZER_EMAIL)
    codes = list(Champion.objects.filter(campaign=campaign).order_by("pk").values_list("code", flat=True)[:200])
    port = free_port()
    server = start_server(port, env, workers=WORKERS)
    board = f"/api/campaigns/{campaign.pk}/champions"
    try:
        endpoints = {
            "GET /api/campaigns/{id}/champions (between changes)": measure(port, [board], args.requests),
            "GET /api/campaigns/{id}/champions (after every change)": measure(
                port, [board], args.requests, before_each=lambda: campaign_changed(campaign_id=campaign.pk)
            ),
            "GET /api/campaigns/{id}/champions/{code}": measure(
                port, [f"{board}/{code}" for code in codes], args.requests
            ),
            "GET /api/campaigns/{id}": measure(port, [f"/api/campaigns/{campaign.pk}"], args.requests),
        }
    finally:
        server.terminate()
        server.wait(timeout=10)

    results = {
        "benchmark": "a campaign's champions: leaderboards, a champion's page, the campaign's page",
        "champions": CHAMPIONS,
        "teams": TEAMS,
        "gifts": DONATIONS + PLEDGES,
        "requests_per_endpoint": args.requests,
        "server": f"gunicorn, {WORKERS} sync workers, on this machine ({os.cpu_count()} CPUs)",
        "goal_p95_ms": GOAL_P95_MS,
        "goal_met": all(figures["p95_ms"] <= GOAL_P95_MS for figures in endpoints.values()),
        "endpoints": endpoints,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
