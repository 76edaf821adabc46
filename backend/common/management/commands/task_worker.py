from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from common.db_task_worker import run_worker


class Command(BaseCommand):
    help = (
        "Run a background task worker for the configured TASK_BACKEND: the database queue's db_worker, "
        "or an RQ worker (with its scheduler, for delayed retries) on the Redis queue. Start as many as needed."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            help="db: seconds between looks at an idle queue (on SQLite, a look costs a read of its commit counter).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.TASK_BACKEND == "rq":
            # Each job goes to one worker (Redis pops it atomically); the scheduler moves delayed jobs
            # onto the queue once, whichever worker holds its lock.
            call_command("rqworker", "default", job_class="django_tasks_rq.Job", with_scheduler=True)
        else:
            # Workers claim rows with SELECT ... FOR UPDATE SKIP LOCKED (on PostgreSQL); an idle one waits
            # cheaply for a commit or a delayed task's time (common/db_task_worker.py).
            run_worker(interval=options["interval"])
