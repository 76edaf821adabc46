"""Benchmark: the public page 'How the money was used' (/campaign/{id}/spending, issue #52).

Seeds once (later runs reuse it) a campaign with 20,000 counted payments over 120 days by every channel
and 300 spending lines (some reversed, some waiting), on PostgreSQL. Starts the renderer (make build)
and gunicorn, then times, as a visitor without cookies:
- GET /campaign/{id}/spending cold (the campaign's version token renewed first, so the figures are read
  and the page rendered again) and warm (the render and the answer from the shared cache);
- GET /api/campaigns/{id}/accountability cold and warm;
and reports the page's HTML size, raw and gzipped, and whether it came rendered. Goal (the HTML-first
goals of the other public pages): warm p95 <= 50 ms, a cold page under 500 ms, HTML under 60 KB gzipped.

    .venv/bin/python bench/spending_page.py [--requests 50]

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/h_bench_spending. Writes
bench/results/spending_page.json. Not part of ``make test``; ``make bench`` runs it.
"""

import argparse
import gzip
import http.client
import json
import os
import time
from typing import Any

from support import RESULTS_DIR, django_on_postgres, free_port, latency_summary, start_renderer, start_server

RESULTS = RESULTS_DIR / "spending_page.json"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_spending"
TITLE = "Bench: how the money was used"
PAYMENTS = 20_000
LINES = 300
DAYS = 120
WORKERS = 2


def seed() -> int:
    """The benchmark's campaign (made now unless it is there): its id."""
    from datetime import timedelta

    from django.db.models import Sum
    from django.utils import timezone

    from accounts.models import User
    from campaigns.models import Campaign
    from organizations.models import Membership
    from organizations.roles import Role
    from organizations.services import organization_choose_for_campaign
    from payments.models import Payment
    from spending.services import spending_approve, spending_record, spending_reverse

    from spending.models import SpendingRecord

    existing = Campaign.objects.filter(title=TITLE).first()
    if existing is not None and SpendingRecord.objects.filter(campaign=existing).exists():
        return existing.pk
    if existing is not None:  # a seeding cut short
        existing.delete()
    owner = User.objects.filter(email="bench.spending.owner@example.com").first() or User.objects.create_user(
        email="bench.spending.owner@example.com", password=None, first_name="Owner"
    )
    treasurer = User.objects.filter(email="bench.spending.treasurer@example.com").first() or User.objects.create_user(
        email="bench.spending.treasurer@example.com", password=None, first_name="Ann"
    )
    campaign = Campaign.objects.create(
        title=TITLE,
        description="Bench",
        story="Bench",
        category="church",
        goal=50_000_000,
        status="active",
        organizer=owner,
        organization=organization_choose_for_campaign(user=owner, organization_id=None),
        end_date=timezone.localdate() + timedelta(days=30),
        start_date=timezone.localdate() - timedelta(days=DAYS),
    )
    Membership.objects.create(organization=campaign.organization, user=treasurer, role=Role.TREASURER)
    now = timezone.now()
    providers = ["mpesa_stk", "mpesa_c2b", "card", "cash", "bank", "mpesa_manual"]
    Payment.objects.bulk_create(
        [
            Payment(
                provider=providers[i % len(providers)],
                purpose="donation",
                amount=100 + (i * 37) % 5_000,
                status="succeeded",
                campaign=campaign,
                counted_at=now - timedelta(days=(i * 7) % DAYS, minutes=i % 600),
            )
            for i in range(PAYMENTS)
        ],
        batch_size=2_000,
    )
    raised = Payment.objects.filter(campaign=campaign).aggregate(total=Sum("amount"))["total"]
    Campaign.objects.filter(pk=campaign.pk).update(raised_total=raised)
    categories = ["materials", "labour", "transport", "fees", "beneficiary_bill", "other"]
    for i in range(LINES):
        line = spending_record(
            user=treasurer,
            campaign_id=campaign.pk,
            spent_on=timezone.localdate() - timedelta(days=(i * 3) % DAYS),
            payee=f"Supplier {i} Ltd" if i % 3 else f"Private Person {i}",
            payee_kind="organization" if i % 3 else "person",
            category=categories[i % len(categories)],
            amount=1_000 + (i * 131) % 40_000,
            note=f"Line {i}",
        )
        if i % 10 != 9:
            spending_approve(user=owner, record_id=line.pk)
        if i % 25 == 0:
            spending_reverse(user=owner, record_id=line.pk, reason="Bench correction")
    return campaign.pk


def get(port: int, path: str) -> tuple[float, bytes, int]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Accept-Language": "en"})
    response = connection.getresponse()
    body = response.read()
    return (time.perf_counter() - started) * 1000, body, response.status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    env = django_on_postgres(DEFAULT_DATABASE_URL)
    from django.core.management import call_command

    call_command("createcachetable")  # the shared cache without Redis: the database's table
    campaign_id = seed()
    from campaigns.caching import campaign_changed

    renderer, renderer_url = start_renderer()
    port = free_port()
    server = start_server(port, {**env, "RENDERER_URL": renderer_url}, workers=WORKERS)
    page, api = f"/campaign/{campaign_id}/spending", f"/api/campaigns/{campaign_id}/accountability"
    results: dict[str, Any] = {"payments": PAYMENTS, "lines": LINES, "requests": args.requests}
    try:
        get(port, page)  # the workers' first request of each kind (imports, connections)
        for name, path in (("page", page), ("api", api)):
            cold, warm = [], []
            for _ in range(args.requests):
                campaign_changed(campaign_id=campaign_id)
                cold.append(get(port, path)[0])
                warm.append(get(port, path)[0])
            results[f"{name}_cold_ms"] = latency_summary(cold)
            results[f"{name}_warm_ms"] = latency_summary(warm)
        _, html, status = get(port, page)
        results["page_status"] = status
        results["html_bytes"] = len(html)
        results["html_gzip_bytes"] = len(gzip.compress(html))
        results["rendered"] = b'<div id="root"></div>' not in html
        results["machine_load_average"] = os.getloadavg()
    finally:
        server.terminate()
        renderer.terminate()
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
