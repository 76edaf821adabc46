from argparse import ArgumentParser
from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand

from notifications.digests import pledge_digests_send_due
from notifications.reminders import reminders_send_due


def aware_datetime(value: str) -> datetime:
    """An ISO 8601 moment with its offset (a naive one would be read in whatever zone the server runs)."""
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        raise ValueError(value)
    return moment


class Command(BaseCommand):
    help = (
        "Enqueue the pledge reminders and organizers' daily digests that are due now "
        "(run every few minutes: serve.sh's loop, or cron)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        # Lets the end-to-end tests advance the clock without touching the system's.
        parser.add_argument(
            "--now",
            type=aware_datetime,
            help="Act as if it were this moment (ISO 8601 with offset, e.g. 2026-03-09T10:00:00+03:00).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        reminders = reminders_send_due(now=options["now"])
        digests = pledge_digests_send_due(now=options["now"])
        self.stdout.write(f"{reminders} reminder(s) and {digests} digest(s) enqueued.")
