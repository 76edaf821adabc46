"""The SMS keywords' background work (the service is imported late: services enqueue this task)."""

from django_tasks import task


@task()
def sms_stk_push_send(*, pledge_id: int, phone: str, amount: int, message_id: str, language: str) -> None:
    from sms_keywords.services import sms_stk_push_send as send

    send(pledge_id=pledge_id, phone=phone, amount=amount, message_id=message_id, language=language)
