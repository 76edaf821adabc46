from typing import Any

from django_tasks import task

from payments.services import payments_reconcile


@task()
def reconcile_payments() -> dict[str, Any]:
    """What ``manage.py payments_reconcile`` does, for a scheduler that enqueues tasks."""
    return payments_reconcile()
