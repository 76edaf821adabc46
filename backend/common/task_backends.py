"""The Redis task queue (TASK_BACKEND=rq): django-tasks-rq's backend, taking task priorities.

RQ has no priorities, and django-tasks-rq 0.12 refuses tasks that declare one. A queue where
someone waits at the screen (a password reset) still matters, so a task above the default priority
goes to the front of the queue and every other task to the back: the order the database queue gives
them, except that the low ones are not held back behind later ordinary ones.
"""

from typing import Any

from django_tasks.base import DEFAULT_TASK_PRIORITY, TASK_MAX_PRIORITY, Task, TaskResult
from django_tasks_rq import RQBackend


class PrioritizingRQBackend(RQBackend):
    supports_priority = True

    def enqueue(self, task: Task[Any, Any], args: Any, kwargs: Any) -> TaskResult[Any]:
        if task.priority > DEFAULT_TASK_PRIORITY:
            task = task.using(priority=TASK_MAX_PRIORITY)  # RQBackend's signal for "at the front"
        elif task.priority < DEFAULT_TASK_PRIORITY:
            task = task.using(priority=DEFAULT_TASK_PRIORITY)
        return super().enqueue(task, args, kwargs)
