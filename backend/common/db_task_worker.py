"""The database queue's worker (TASK_BACKEND=db), idling cheaply.

django-tasks-db's own worker asks the database for a ready task every `interval` seconds, each time in an
exclusive transaction: on SQLite the write lock, and a few milliseconds of CPU in the ORM, even on a queue
that stays empty for minutes (the e2e servers run one each, beside their specs, on two cores). This one takes
its tasks the same way (`ready()`, `get_locked()`, `claim()`, the library worker's `run_task`), but between
them it waits for a reason to look:

- SQLite: `PRAGMA data_version` on a connection of its own changes whenever any other connection commits,
  so it is read every `interval` (a few microseconds) and the queue is asked only once something was
  written, or once the earliest delayed task (`run_after`) falls due. A task is thus taken as soon as before.
- Any other database (PostgreSQL): nothing tells it about commits, so it asks every `interval` as before,
  and sooner when a delayed task falls due in between.
"""

import sqlite3
import time
from collections.abc import Callable

from django.db import close_old_connections, connections
from django.db.models import Min
from django.db.utils import OperationalError
from django.utils import timezone
from django_tasks.base import DEFAULT_TASK_QUEUE_NAME, TaskResultStatus
from django_tasks.utils import get_random_id
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult, get_date_max
from django_tasks_db.utils import exclusive_transaction

# A look at the queue at least this often even with nothing written, should anything ever change it unseen.
LONGEST_IDLE_SECONDS = 60.0


def commit_counter(path: str) -> Callable[[], int]:
    """A reading of the SQLite database file at `path` that changes whenever another connection commits."""
    connection = sqlite3.connect(path, check_same_thread=False)
    return lambda: connection.execute("PRAGMA data_version").fetchone()[0]


def library_worker(*, interval: float, backend_name: str) -> Worker:
    """django-tasks-db's worker on the default queue, for its way of running a task and of stopping on a signal."""
    return Worker(
        queue_names=[DEFAULT_TASK_QUEUE_NAME],
        interval=interval,
        batch=False,
        backend_name=backend_name,
        startup_delay=False,
        max_tasks=None,
        worker_id=get_random_id(),
    )


def run_next_task(worker: Worker, *, backend_name: str) -> bool:
    """Claims and runs the first ready task, as django-tasks-db's worker does; whether there was one."""
    tasks = DBTaskResult.objects.ready().filter(backend_name=backend_name, queue_name=DEFAULT_TASK_QUEUE_NAME)
    with exclusive_transaction(tasks.db):
        try:
            task_result = tasks.get_locked()
        except OperationalError as error:
            if "is locked" not in error.args[0]:  # SQLite busy: the next look will take it
                raise
            task_result = None
        if task_result is not None:
            task_result.claim(worker.worker_id)
    if task_result is not None:
        worker.run_task(task_result)
    close_old_connections()
    return task_result is not None


def seconds_until_next_delayed_task(*, backend_name: str) -> float | None:
    """How long until the earliest task waiting for its `run_after` falls due; None: no task waits."""
    due = (
        DBTaskResult.objects.filter(
            status=TaskResultStatus.READY, backend_name=backend_name, queue_name=DEFAULT_TASK_QUEUE_NAME
        )
        .exclude(run_after=get_date_max())
        .aggregate(due=Min("run_after"))["due"]
    )
    close_old_connections()
    return None if due is None else max(0.0, (due - timezone.now()).total_seconds())


def run_worker(*, interval: float, backend_name: str = "default") -> None:
    """Runs the queue's tasks until stopped (SIGINT/SIGTERM end it between tasks, as the library's worker)."""
    worker = library_worker(interval=interval, backend_name=backend_name)
    worker.configure_signals()
    database = connections["default"]
    commits = commit_counter(database.settings_dict["NAME"]) if database.vendor == "sqlite" else None
    while worker.running:
        seen = commits() if commits else None  # before looking: a commit while it looks is not missed
        while worker.running and run_next_task(worker, backend_name=backend_name):
            pass
        due_in = seconds_until_next_delayed_task(backend_name=backend_name)
        idle = min(LONGEST_IDLE_SECONDS if commits else interval, LONGEST_IDLE_SECONDS if due_in is None else due_in)
        look_at = time.monotonic() + idle
        while worker.running and time.monotonic() < look_at and (commits is None or commits() == seen):
            time.sleep(min(interval, max(0.0, look_at - time.monotonic())))
