"""Background work: each task calls one service (imported late: services enqueue these tasks)."""

from django_tasks import task


@task()
def deliver_notification(*, log_id: int) -> None:
    from notifications.services import notification_deliver

    notification_deliver(log_id=log_id)


@task()
def notify_pledge_recorded(*, pledge_id: int) -> None:
    from notifications.services import pledge_recorded_notify

    pledge_recorded_notify(pledge_id=pledge_id)


@task()
def notify_pledge_payment(*, pledge_id: int, payment_id: int, fully_paid: bool) -> None:
    from notifications.services import pledge_payment_notify

    pledge_payment_notify(pledge_id=pledge_id, payment_id=payment_id, fully_paid=fully_paid)


@task()
def send_pledge_reminder(*, pledge_id: int, reminder_id: int | None) -> None:
    from notifications.services import pledge_reminder_send

    pledge_reminder_send(pledge_id=pledge_id, reminder_id=reminder_id)
