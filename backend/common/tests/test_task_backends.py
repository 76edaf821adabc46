"""TASK_BACKEND=rq: priorities become RQ's two places in the queue, front and back."""

import pytest
from django_tasks import task
from django_tasks.base import DEFAULT_TASK_PRIORITY, TASK_MAX_PRIORITY
from django_tasks_rq import RQBackend

from common.task_backends import PrioritizingRQBackend


@task()
def ordinary() -> None: ...


@pytest.fixture
def enqueued(monkeypatch):
    """The priority each task reaches django-tasks-rq with (no Redis needed)."""
    priorities: list[int] = []
    monkeypatch.setattr(RQBackend, "enqueue", lambda self, task, args, kwargs: priorities.append(task.priority))
    return priorities


@pytest.fixture
def backend():
    return PrioritizingRQBackend("default", {"QUEUES": ["default"]})


def test_tasks_may_declare_a_priority(backend):
    backend.validate_task(ordinary.using(priority=10))
    backend.validate_task(ordinary.using(priority=-10))


def test_a_task_above_the_default_goes_to_the_front_and_any_other_to_the_back(backend, enqueued):
    for priority in (10, DEFAULT_TASK_PRIORITY, -10):
        backend.enqueue(ordinary.using(priority=priority), [], {})

    assert enqueued == [TASK_MAX_PRIORITY, DEFAULT_TASK_PRIORITY, DEFAULT_TASK_PRIORITY]
