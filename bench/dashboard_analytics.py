"""Benchmark: the dashboard and one campaign's analytics on PostgreSQL through the real server.

Seeds once (later runs reuse the data) 10,000 campaigns and 1,000,000 pledges with their
payments and donations, 1,000,000 payments in all, with INSERT ... SELECT over generate_series;
one organizer has 20 campaigns and 50,000 of the pledges. Starts gunicorn on a free loopback
port and times GET /api/dashboard and GET /api/campaigns/{id}/analytics as that organizer over
a bounded number of requests. Prints the figures and the query plans, and writes
bench/results/dashboard_analytics.json. Goal: p95 <= 50 ms for each.

    .venv/bin/python bench/dashboard_analytics.py [--requests 200]

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/h_bench_dashboard (created when
missing). Not part of ``make test``; ``make bench`` runs it.
"""

import argparse
import http.client
import json
import os
import time
from typing import Any

from support import RESULTS_DIR, django_on_postgres, free_port, latency_summary, start_server

RESULTS = RESULTS_DIR / "dashboard_analytics.json"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_dashboard"
CAMPAIGNS = 10_000
PLEDGES = 1_000_000
ORGANIZER_CAMPAIGNS = 20
ORGANIZER_PLEDGES = 50_000
ORGANIZER_EMAIL = "bench.dashboard.organizer@example.com"
DAYS = 90
WORKERS = 2
GOAL_P95_MS = 50.0


def _insert_select(model: Any, values: dict[str, str], source: str) -> None:
    """INSERT INTO <model> SELECT <values> FROM <source>; fields not in ``values`` get their default."""
    from django.db import connection

    columns, expressions, params = [], [], []
    for field in model._meta.concrete_fields:
        if field.primary_key:
            continue
        columns.append(connection.ops.quote_name(field.column))
        if field.name in values:
            expressions.append(values[field.name].replace("%", "%%"))  # modulo, not a placeholder
        else:
            expressions.append("%s")
            params.append(field.get_db_prep_save(field.get_default(), connection))
    sql = f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) SELECT {', '.join(expressions)} FROM {source.replace('%', '%%')}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def seed() -> bool:
    """The benchmark's data, unless it is there already; answers whether it was made now."""
    from datetime import date, timedelta

    from django.contrib.auth.hashers import make_password
    from django.db import connection, transaction

    from accounts.models import User
    from analytics.models import CampaignDailyVisits
    from campaigns.models import Campaign
    from payments.models import Payment
    from pledges.models import Donation, Pledge, PledgePayment

    if User.objects.filter(email=ORGANIZER_EMAIL).exists():
        return False
    today = date.today()
    with transaction.atomic():
        organizer = User.objects.create(email=ORGANIZER_EMAIL, password=make_password(None), first_name="Bench")
        others = User.objects.bulk_create(
            [
                User(
                    email=f"bench.dashboard{n}@example.com",
                    password=make_password(None),
                )
                for n in range(100)
            ]
        )
        campaigns = [
            Campaign(
                organizer=organizer if n < ORGANIZER_CAMPAIGNS else others[n % len(others)],
                title=f"Benchmark campaign {n}",
                description="A campaign of the dashboard benchmark.",
                story="Benchmark data.",
                category="community",
                goal=5_000_000,
                start_date=today - timedelta(days=DAYS),
                end_date=today + timedelta(days=30),
                payment_options=[],
            )
            for n in range(CAMPAIGNS)
        ]
        Campaign.objects.bulk_create(campaigns, batch_size=5_000)
        first = min(campaign.pk for campaign in campaigns)
        mine = f"{first} + (n % {ORGANIZER_CAMPAIGNS})"
        theirs = f"{first + ORGANIZER_CAMPAIGNS} + (n % {CAMPAIGNS - ORGANIZER_CAMPAIGNS})"
        # Pledges: the organizer's first, then everyone else's; a third each confirmed, partly paid, pending.
        _insert_select(
            Pledge,
            {
                "campaign": f"CASE WHEN n <= {ORGANIZER_PLEDGES} THEN {mine} ELSE {theirs} END",
                "name": "'Pledger ' || n",
                "email": "'pledger' || n || '@example.com'",
                "phone": "'+2547' || lpad((n % 100000000)::text, 8, '0')",
                "amount": "1000 + (n % 50) * 1000",
                "code": "lpad(n::text, 7, '0')",
                "status": "(ARRAY['confirmed', 'partly_paid', 'pending'])[1 + n % 3]",
                "paid_amount": "CASE n % 3 WHEN 0 THEN 1000 + (n % 50) * 1000 WHEN 1 THEN 500 ELSE 0 END",
                "created_at": f"now() - ((n::bigint * 7919) % ({DAYS} * 24)) * interval '1 hour'",
            },
            f"generate_series(1, {PLEDGES}) AS n",
        )
        # One payment for each pledge with money paid, by one of the five methods.
        _insert_select(
            Payment,
            {
                "reference": "'BP' || lpad(pledge.id::text, 10, '0')",
                "provider": "(ARRAY['mpesa_stk', 'mpesa_c2b', 'card', 'cash', 'bank'])[1 + pledge.id % 5]",
                "purpose": "'pledge_payment'",
                "amount": "pledge.paid_amount",
                "status": "'succeeded'",
                "campaign": "pledge.campaign_id",
                "account_reference": "pledge.code",
                "created_at": "pledge.created_at",
                "settled_at": "pledge.created_at + interval '1 day'",
                "counted_at": "pledge.created_at + interval '1 day'",
            },
            f"{Pledge._meta.db_table} AS pledge WHERE pledge.paid_amount > 0",
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {PledgePayment._meta.db_table} (pledge_id, payment_id, created_at) "
                f"SELECT pledge.id, payment.id, payment.settled_at FROM {Payment._meta.db_table} AS payment "
                f"JOIN {Pledge._meta.db_table} AS pledge ON pledge.code = payment.account_reference "
                "WHERE payment.purpose = 'pledge_payment'"
            )
            cursor.execute(f"SELECT count(*) FROM {Payment._meta.db_table}")
            (payments,) = cursor.fetchone()
        # Donations make up the rest of the million payments.
        donations = 1_000_000 - payments
        _insert_select(
            Payment,
            {
                "reference": "'BD' || lpad(n::text, 10, '0')",
                "provider": "(ARRAY['mpesa_stk', 'card'])[1 + n % 2]",
                "purpose": "'donation'",
                "amount": "100 + (n % 20) * 50",
                "status": "'succeeded'",
                "campaign": f"CASE WHEN n % 20 = 0 THEN {first} + (n / 20) % {ORGANIZER_CAMPAIGNS} ELSE {theirs} END",
                "created_at": f"now() - ((n::bigint * 104729) % ({DAYS} * 24)) * interval '1 hour'",
                "settled_at": f"now() - ((n::bigint * 104729) % ({DAYS} * 24)) * interval '1 hour'",
                "counted_at": f"now() - ((n::bigint * 104729) % ({DAYS} * 24)) * interval '1 hour'",
            },
            f"generate_series(1, {donations}) AS n",
        )
        _insert_select(
            Donation,
            {
                "campaign": "payment.campaign_id",
                "payment": "payment.id",
                "amount": "payment.amount",
                "counted_at": "payment.settled_at",
                "created_at": "payment.created_at",
            },
            f"{Payment._meta.db_table} AS payment WHERE payment.purpose = 'donation'",
        )
        _insert_select(
            CampaignDailyVisits,
            {
                "campaign": "campaign.id",
                "day": "current_date - day",
                "views": "50 + (campaign.id * day) % 200",
                "visitors": "20 + (campaign.id * day) % 80",
            },
            f"{Campaign._meta.db_table} AS campaign CROSS JOIN generate_series(0, {DAYS}) AS day "
            f"WHERE campaign.organizer_id = {organizer.pk}",
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Campaign._meta.db_table} AS campaign SET pledged_total = totals.pledged, "
                "raised_total = totals.paid FROM (SELECT campaign_id, sum(amount) AS pledged, "
                f"sum(paid_amount) AS paid FROM {Pledge._meta.db_table} GROUP BY campaign_id) AS totals "
                "WHERE totals.campaign_id = campaign.id"
            )
    return True


def settle() -> None:
    """VACUUM ANALYZE, outside a transaction, as autovacuum would in steady state: after seeding,
    or after a migration rewrote rows of the reused data."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def session_cookie() -> str:
    """A signed-in session of the organizer, made as django.contrib.auth.login would."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User

    user = User.objects.get(email=ORGANIZER_EMAIL)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"sessionid={session.session_key}"


def explain(campaign_id: int) -> list[str]:
    """EXPLAIN ANALYZE of each query the two endpoints run, after the session's and the user's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from analytics.selectors import campaign_analytics_get
    from campaigns import selectors
    from campaigns.models import Campaign

    user = User.objects.get(email=ORGANIZER_EMAIL)
    with CaptureQueriesContext(connection) as captured:
        selectors.dashboard_totals(user=user)
        selectors.dashboard_campaigns(user=user)
        campaign_analytics_get(campaign=Campaign.objects.get(pk=campaign_id))
    plans = []
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF) {query['sql']}")
            plans.append(query["sql"] + "\n" + "\n".join(row[0] for row in cursor.fetchall()))
    return plans


def timed_get(port: int, path: str, cookie: str) -> float:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Cookie": cookie})
    response = connection.getresponse()
    body = response.read()
    elapsed_ms = (time.perf_counter() - started) * 1000
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}: {body[:200]!r}")
    return elapsed_ms


def measure(port: int, paths: list[str], cookie: str, requests: int) -> dict[str, float]:
    """Latency figures of ``requests`` GETs cycling through ``paths``, after a warm-up round."""
    for path in paths * 2:  # warm up both workers and their database connections
        timed_get(port, path, cookie)
    return latency_summary([timed_get(port, paths[n % len(paths)], cookie) for n in range(requests)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    env = django_on_postgres(DEFAULT_DATABASE_URL)
    started = time.perf_counter()
    made = seed()
    settle()
    print(f"{'seeded' if made else 'reused'} the data in {time.perf_counter() - started:.1f} s")

    from campaigns.models import Campaign

    campaign_ids = list(
        Campaign.objects.filter(organizer__email=ORGANIZER_EMAIL).order_by("pk").values_list("pk", flat=True)
    )
    for plan in explain(campaign_ids[0]):
        print(plan, end="\n\n")
    cookie = session_cookie()
    port = free_port()
    server = start_server(port, env, workers=WORKERS)
    try:
        endpoints = {
            "GET /api/dashboard": measure(port, ["/api/dashboard"], cookie, args.requests),
            "GET /api/campaigns/{id}/analytics": measure(
                port,
                [f"/api/campaigns/{pk}/analytics" for pk in campaign_ids],
                cookie,
                args.requests,
            ),
        }
    finally:
        server.terminate()
        server.wait(timeout=10)

    results = {
        "benchmark": "the organizer's dashboard and one campaign's analytics",
        "campaigns": CAMPAIGNS,
        "pledges": PLEDGES,
        "payments": 1_000_000,
        "organizer": {"campaigns": ORGANIZER_CAMPAIGNS, "pledges": ORGANIZER_PLEDGES},
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
