"""`manage.py scheduler`: the scheduled jobs of a server without cron (scripts/serve.sh), every few minutes,
all in this one process. One `manage.py` per job and round started Django four times every five minutes,
about 2 s of CPU each, more than the jobs themselves: on the two cores the e2e servers share, at the start of
every shard. In production a cron (or a platform's scheduler) runs each job's own command instead."""

import time
from argparse import ArgumentParser
from io import StringIO
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connections

# Each job's command, and what it does in the words of its failure.
JOBS = (
    ("send_due_reminders", "enqueue due reminders"),
    ("mpesa_pull_transactions", "pull M-Pesa transactions"),
    ("expire_change_requests", "expire team changes"),
    ("expire_statement_previews", "delete old statement previews"),
)


class Command(BaseCommand):
    help = (
        "Run the scheduled jobs (due reminders, missed M-Pesa payments, expired team changes and statement "
        "previews) now and then every --every seconds, in this one process."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--every", type=float, default=300.0, help="seconds from one round to the next")
        parser.add_argument("--once", action="store_true", help="one round, then stop")

    def handle(self, *args: Any, every: float, once: bool, **options: Any) -> None:
        while True:
            for name, what in JOBS:
                try:
                    call_command(name, stdout=StringIO())
                except Exception as error:  # one failed job does not hold up the others, nor the next round
                    self.stderr.write(f"Could not {what}: {error}")
            if once:
                return
            connections.close_all()  # not held open while it sleeps
            time.sleep(every)
