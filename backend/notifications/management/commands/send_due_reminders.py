from typing import Any

from django.core.management.base import BaseCommand

from notifications.services import reminders_send_due


class Command(BaseCommand):
    help = "Enqueue the pledge reminders that are due now (run every few minutes: serve.sh's loop, or cron)."

    def handle(self, *args: Any, **options: Any) -> None:
        enqueued = reminders_send_due()
        self.stdout.write(f"{enqueued} reminder(s) enqueued.")
