"""The database queue's worker: it runs ready tasks as django-tasks-db's does, knows when a delayed one falls
due, and on SQLite sees every commit through a counter it can read for almost nothing."""

import sqlite3
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks import task

from common.db_task_worker import commit_counter, library_worker, run_next_task, seconds_until_next_delayed_task

ran: list[int] = []


@task()
def remember(number: int) -> None:
    ran.append(number)


@pytest.fixture
def database_queue(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    ran.clear()


@pytest.fixture
def worker():
    return library_worker(interval=0.5, backend_name="default")


# The worker takes a task in an exclusive transaction of its own, as in production: no test transaction around it.
@pytest.mark.django_db(transaction=True)
def test_it_runs_each_ready_task_once_then_finds_none(database_queue, worker):
    remember.enqueue(1)
    remember.enqueue(2)

    assert run_next_task(worker, backend_name="default")
    assert run_next_task(worker, backend_name="default")
    assert not run_next_task(worker, backend_name="default")
    assert sorted(ran) == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_a_delayed_task_waits_for_its_time_and_says_when_that_is(database_queue, worker):
    assert seconds_until_next_delayed_task(backend_name="default") is None

    remember.using(run_after=timezone.now() + timedelta(seconds=30)).enqueue(3)

    assert not run_next_task(worker, backend_name="default")
    due_in = seconds_until_next_delayed_task(backend_name="default")
    assert due_in is not None and 25 < due_in <= 30
    assert ran == []


@pytest.mark.django_db
def test_a_task_past_its_time_is_due_at_once(database_queue):
    remember.using(run_after=timezone.now() - timedelta(seconds=5)).enqueue(4)
    assert seconds_until_next_delayed_task(backend_name="default") == 0.0


def test_the_commit_counter_changes_when_another_connection_commits(tmp_path):
    path = str(tmp_path / "db.sqlite3")
    writer = sqlite3.connect(path)
    writer.execute("CREATE TABLE t (x)")
    writer.commit()
    commits = commit_counter(path)
    seen = commits()

    assert commits() == seen
    writer.execute("INSERT INTO t VALUES (1)")
    writer.commit()
    assert commits() != seen
