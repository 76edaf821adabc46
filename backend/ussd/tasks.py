"""The USSD menu's background work (the service is imported late: services enqueue this task)."""

from django_tasks import task


@task()
def ussd_stk_push_send(*, kind: str, target_id: int, phone: str, amount: int, session_id: str, language: str) -> None:
    from ussd.services import ussd_stk_push_send as send

    send(kind=kind, target_id=target_id, phone=phone, amount=amount, session_id=session_id, language=language)
