"""Background work: each task calls one service (imported late: services enqueue these tasks)."""

from django_tasks import task


@task()
def process_statement_run(*, run_id: int) -> None:
    from giving.services import statement_run_process

    statement_run_process(run_id=run_id)
