from django_tasks import task

from statements import services


@task()
def expire_statement_previews() -> int:
    """What ``manage.py expire_statement_previews`` does, for a scheduler that enqueues tasks."""
    return services.statement_previews_expire()
