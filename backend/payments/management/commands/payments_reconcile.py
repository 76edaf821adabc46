from typing import Any

from django.core.management.base import BaseCommand

from payments.services import payments_reconcile


class Command(BaseCommand):
    help = (
        "Ask M-Pesa and Paystack about payments still pending after two minutes (their callback may "
        "never come), then expire those older than an hour. Run it from cron every few minutes, e.g. "
        "'*/5 * * * * cd /srv/harambee/backend && ../.venv/bin/python manage.py payments_reconcile'."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        counts = payments_reconcile()
        self.stdout.write(f"Queried {counts['queried']} pending payment(s); expired {counts['expired']}.")
