"""Benchmark: importing a 5,000-row bank statement (statements/services.py, its bank path), on PostgreSQL.

Like bench/statement_import.py for M-Pesa: a church of its own per run (a bank account, a campaign, 1,000
pledges, the keyword TITHE) and a generated bank statement (simulators/statements.py
``bank_statement_generate``) of 5,000 rows over 30 days, the pledge codes in the narration. It times the
upload and preview, the confirmation, the same statement again (it must credit nothing), an
overlapping statement of 6,000 rows (only the new rows) and the undo of both (every total back).

Goals: the M-Pesa import's, preview under 5 s and confirm under 10 s. Writes
bench/results/bank_statement_import.json. ``make bench`` runs it.

    .venv/bin/python bench/bank_statement_import.py   (BENCH_ROWS=500 for a quick look)
"""

import json
import os
import platform

from support import RESULTS_DIR, django_on_postgres, statement_church, timed

RESULTS = RESULTS_DIR / "bank_statement_import.json"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_statements"
ROWS = int(os.environ.get("BENCH_ROWS", "5000"))
OVERLAP_ROWS = ROWS + 1_000
PLEDGES = 1_000
GOAL_PREVIEW_SECONDS = 5.0
GOAL_CONFIRM_SECONDS = 10.0
COLUMNS = {
    "date": "Transaction Date",
    "amount": "Credit",
    "debit": "Debit",
    "reference": "Transaction Reference",
    "description": "Narrative",
}


def main() -> None:
    django_on_postgres(DEFAULT_DATABASE_URL)
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command

    call_command("createcachetable")

    from campaigns.models import Campaign
    from payments.models import Payment
    from pledges.tests.test_ledger_properties import typo
    from simulators.statements import bank_statement_generate
    from statements import selectors, services
    from statements.parsing import BankColumns

    campaign, account, pledge_codes = statement_church(bank=True, pledges=PLEDGES)
    treasurer = campaign.organizer
    organization_id = account.organization_id
    account_numbers = [
        *pledge_codes,
        *pledge_codes,
        "TITHE",
        typo(pledge_codes[0]),
        "BUILDING",
    ]

    def statement(rows: int):
        data = bank_statement_generate(rows=rows, account_numbers=account_numbers)
        return SimpleUploadedFile("bank.csv", data, content_type="text/csv")

    def upload_and_preview(rows: int):
        upload = services.statement_import_upload(
            user=treasurer,
            organization_id=organization_id,
            account_id=account.pk,
            file=statement(rows),
            bank_columns=BankColumns(**COLUMNS),
        )
        return selectors.statement_preview(statement_import=upload)

    def confirm(preview):
        return services.statement_import_confirm(
            user=treasurer,
            organization_id=organization_id,
            import_id=preview.statement_import.pk,
        )

    def totals():
        figures = Campaign.objects.get(pk=campaign.pk)
        return figures.raised_total, figures.donor_count

    before = totals()
    preview, preview_seconds = timed(lambda: upload_and_preview(ROWS))
    figures = preview.counts()
    _, confirm_seconds = timed(lambda: confirm(preview))
    after_first = totals()
    payments_after_first = Payment.objects.count()

    again, reimport_preview_seconds = timed(lambda: upload_and_preview(ROWS))
    _, reimport_confirm_seconds = timed(lambda: confirm(again))
    reimport_credited = Payment.objects.count() - payments_after_first

    overlap, _ = timed(lambda: upload_and_preview(OVERLAP_ROWS))
    overlap_confirmed, overlap_confirm_seconds = timed(lambda: confirm(overlap))
    overlap_recorded = overlap_confirmed.imported.count()

    first_import = preview.statement_import.pk

    def undo_both():
        for import_id in (overlap.statement_import.pk, first_import):
            services.statement_import_undo(
                user=treasurer,
                organization_id=organization_id,
                import_id=import_id,
                reason="Benchmark",
            )

    _, undo_seconds = timed(undo_both)
    after_undo = totals()

    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, PostgreSQL",
        "rows": ROWS,
        "pledges": PLEDGES,
        "preview_figures": figures,
        "preview_seconds": preview_seconds,
        "confirm_seconds": confirm_seconds,
        "goal_preview_seconds": GOAL_PREVIEW_SECONDS,
        "goal_confirm_seconds": GOAL_CONFIRM_SECONDS,
        "reimport_preview_seconds": reimport_preview_seconds,
        "reimport_confirm_seconds": reimport_confirm_seconds,
        "reimport_payments_recorded": reimport_credited,
        "overlap_rows": OVERLAP_ROWS,
        "overlap_payments_recorded": overlap_recorded,
        "overlap_confirm_seconds": overlap_confirm_seconds,
        "undo_both_seconds": undo_seconds,
        "raised_before_after_undo": [before[0], after_first[0], after_undo[0]],
        "totals_restored_by_undo": after_undo == before,
    }
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))
    assert reimport_credited == 0, "the same statement again recorded payments"
    new_rows = overlap.counts()
    assert overlap_recorded == new_rows["matched"]["rows"] + new_rows["unmatched"]["rows"] <= OVERLAP_ROWS - ROWS
    assert after_undo == before, "undo did not restore every total"


if __name__ == "__main__":
    main()
