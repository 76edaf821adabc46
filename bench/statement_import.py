"""Benchmark: importing a 5,000-row M-Pesa statement (statements/services.py), on PostgreSQL.

Each run makes a church of its own (a connected paybill, a campaign, 1,000 pledges, the keyword TITHE)
and a generated statement (simulators/statements.py ``statement_generate``) of 5,000 rows: payments
to the pledges' codes, tithes, mistyped codes and withdrawals. It times, through the services the
endpoints call:

- ``preview``: the upload (reading the file, keeping its rows) and the preview of every row;
- ``confirm``: crediting the matched rows and recording the unmatched ones, in one transaction;
- the same statement again (``reimport``): it must credit nothing;
- an overlapping statement of 6,000 rows (the same 5,000 and 1,000 more): only the new ones;
- ``undo`` of both imports: every total must be back where it started.

Goals: preview under 5 s, confirm under 10 s (the issue's acceptance). Three runs; writes each run and
the medians (and their ratio to the goals) to bench/results/statement_import.json, which web.py adds to
SUMMARY.md. Not part of ``make test``; ``make bench`` runs it.

    .venv/bin/python bench/statement_import.py

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/h_bench_statements (created when missing).
"""

import json
import os
import platform
import secrets
import statistics
from typing import Any

from support import RESULTS_DIR, django_on_postgres, statement_church, timed

RESULTS = RESULTS_DIR / "statement_import.json"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_statements"
ROWS = 5_000
OVERLAP_ROWS = 6_000
PLEDGES = 1_000
GOAL_PREVIEW_SECONDS = 5.0
GOAL_CONFIRM_SECONDS = 10.0
RUNS = 3


def one_run() -> dict[str, Any]:
    """The whole story once, for a church of its own; its timings and what it checked."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from campaigns.models import Campaign
    from payments.models import Payment
    from pledges.tests.test_ledger_properties import typo
    from simulators.statements import statement_generate
    from statements import selectors, services

    campaign, account, pledge_codes = statement_church(pledges=PLEDGES)
    treasurer = campaign.organizer
    organization_id = account.organization_id
    account_numbers = [*pledge_codes, *pledge_codes, "TITHE", "tithe", typo(pledge_codes[0]), "BUILDING"]

    # Receipts of this run only: a run never finds an earlier run's payments.
    receipt_prefix = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(3))

    def statement(rows: int):
        data = statement_generate(
            rows=rows, account_numbers=account_numbers, shortcode=account.paybill_number, receipt_prefix=receipt_prefix
        )
        return SimpleUploadedFile("statement.csv", data, content_type="text/csv")

    def upload_and_preview(rows: int):
        upload = services.statement_import_upload(
            user=treasurer, organization_id=organization_id, account_id=account.pk, file=statement(rows)
        )
        return selectors.statement_preview(statement_import=upload)

    def confirm(preview):
        return services.statement_import_confirm(
            user=treasurer, organization_id=organization_id, import_id=preview.statement_import.pk
        )

    def totals():
        figures = Campaign.objects.get(pk=campaign.pk)
        counted = Payment.objects.filter(campaign=campaign, counted_at__isnull=False).count()
        return figures.raised_total, figures.donor_count, counted

    before = totals()
    preview, preview_seconds = timed(lambda: upload_and_preview(ROWS))
    _, confirm_seconds = timed(lambda: confirm(preview))
    after_first = totals()
    payments_after_first = Payment.objects.count()

    again, reimport_preview_seconds = timed(lambda: upload_and_preview(ROWS))
    _, reimport_confirm_seconds = timed(lambda: confirm(again))
    reimport_credited = Payment.objects.count() - payments_after_first

    overlap, _ = timed(lambda: upload_and_preview(OVERLAP_ROWS))
    overlap_confirmed, overlap_confirm_seconds = timed(lambda: confirm(overlap))
    overlap_recorded = overlap_confirmed.imported.count()
    new_rows = overlap.counts()

    def undo_both():
        for import_id in (overlap.statement_import.pk, preview.statement_import.pk):
            services.statement_import_undo(
                user=treasurer, organization_id=organization_id, import_id=import_id, reason="Benchmark"
            )

    _, undo_seconds = timed(undo_both)
    after_undo = totals()
    assert reimport_credited == 0, "the same statement again recorded payments"
    assert overlap_recorded == new_rows["matched"]["rows"] + new_rows["unmatched"]["rows"] <= OVERLAP_ROWS - ROWS
    assert after_undo == before, "undo did not restore every total"
    return {
        "preview_figures": preview.counts(),
        "preview_seconds": preview_seconds,
        "confirm_seconds": confirm_seconds,
        "reimport_preview_seconds": reimport_preview_seconds,
        "reimport_confirm_seconds": reimport_confirm_seconds,
        "reimport_payments_recorded": reimport_credited,
        "overlap_payments_recorded": overlap_recorded,
        "overlap_confirm_seconds": overlap_confirm_seconds,
        "undo_both_seconds": undo_seconds,
        "raised_before_after_undo": [before[0], after_first[0], after_undo[0]],
        "totals_restored_by_undo": after_undo == before,
    }


TIMINGS = (
    "preview_seconds",
    "confirm_seconds",
    "reimport_preview_seconds",
    "reimport_confirm_seconds",
    "overlap_confirm_seconds",
    "undo_both_seconds",
)


def main() -> None:
    django_on_postgres(DEFAULT_DATABASE_URL)
    from django.core.management import call_command

    call_command("createcachetable")  # the cache is the database's unless REDIS_URL is set

    runs = [one_run() for _ in range(RUNS)]
    median = {name: round(statistics.median(run[name] for run in runs), 3) for name in TIMINGS}
    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, PostgreSQL",
        "rows": ROWS,
        "pledges": PLEDGES,
        "overlap_rows": OVERLAP_ROWS,
        "runs": RUNS,
        "median": median,
        "goal_preview_seconds": GOAL_PREVIEW_SECONDS,
        "goal_confirm_seconds": GOAL_CONFIRM_SECONDS,
        # Below 1: within the goal.
        "preview_to_goal": round(median["preview_seconds"] / GOAL_PREVIEW_SECONDS, 2),
        "confirm_to_goal": round(median["confirm_seconds"] / GOAL_CONFIRM_SECONDS, 2),
        "each_run": runs,
    }
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps({key: value for key, value in results.items() if key != "each_run"}, indent=2))


if __name__ == "__main__":
    main()
