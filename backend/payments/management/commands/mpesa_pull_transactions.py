from typing import Any

from django.core.management.base import BaseCommand

from payments.services import mpesa_pull_due


class Command(BaseCommand):
    help = (
        "Ask Pull Transactions for the last 48 hours of every connected paybill or till not pulled in "
        "the last ten minutes, and credit (once by receipt) payments whose confirmation never came. "
        "The scheduler runs it every minute with payments_reconcile."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        totals = mpesa_pull_due()
        self.stdout.write(
            f"Pulled {totals['accounts']} account(s): {totals['pulled']} payment(s) listed, "
            f"{totals['credited']} credited, {totals['failed']} account(s) unreachable."
        )
