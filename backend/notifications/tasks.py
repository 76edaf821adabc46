"""Background work: each task calls one service (imported late: services enqueue these tasks).

Priorities order the worker's queue: a password reset first (someone is waiting at the screen),
the organizers' news of new pledges last (behind the pledgers' own confirmations)."""

from django_tasks import task

ORGANIZER_NEWS_PRIORITY = -10


@task()
def deliver_notification(*, log_id: int) -> None:
    from notifications.outbox import notification_deliver

    notification_deliver(log_id=log_id)


@task()
def notify_pledge_recorded(*, pledge_id: int) -> None:
    from notifications.messages import pledge_recorded_notify

    pledge_recorded_notify(pledge_id=pledge_id)


@task()
def notify_pledge_payment(*, pledge_id: int, payment_id: int) -> None:
    from notifications.messages import pledge_payment_notify

    pledge_payment_notify(pledge_id=pledge_id, payment_id=payment_id)


@task()
def notify_pledge_changed(*, pledge_id: int, change: str) -> None:
    from notifications.messages import pledge_change_notify

    pledge_change_notify(pledge_id=pledge_id, change=change)


@task()
def notify_payment_receipt(*, payment_id: int) -> None:
    from notifications.messages import payment_receipt_notify

    payment_receipt_notify(payment_id=payment_id)


@task()
def notify_desk_gift_receipt(*, donation_id: int) -> None:
    from notifications.messages import desk_gift_receipt_notify

    desk_gift_receipt_notify(donation_id=donation_id)


@task()
def send_pledge_reminder(*, pledge_id: int, reminder_id: int | None) -> None:
    from notifications.reminders import pledge_reminder_send

    pledge_reminder_send(pledge_id=pledge_id, reminder_id=reminder_id)


@task()
def send_circle_reminder(*, pledge_id: int, champion_id: int) -> None:
    from notifications.circle_reminders import circle_reminder_send

    circle_reminder_send(pledge_id=pledge_id, champion_id=champion_id)


@task()
def notify_welcome(*, user_id: int) -> None:
    from notifications.messages import user_welcome_notify

    user_welcome_notify(user_id=user_id)


@task(priority=10)
def notify_password_reset(*, user_id: int) -> None:
    from notifications.messages import password_reset_notify

    password_reset_notify(user_id=user_id)


@task(priority=ORGANIZER_NEWS_PRIORITY)
def notify_organizer_new_pledge(*, pledge_id: int) -> None:
    from notifications.messages import organizer_new_pledge_notify

    organizer_new_pledge_notify(pledge_id=pledge_id)


@task(priority=ORGANIZER_NEWS_PRIORITY)
def send_pledge_digest(*, digest_id: int) -> None:
    from notifications.digests import pledge_digest_send

    pledge_digest_send(digest_id=digest_id)


@task()
def notify_campaign_activated(*, campaign_id: int, payment_id: int) -> None:
    from notifications.messages import campaign_activated_notify

    campaign_activated_notify(campaign_id=campaign_id, payment_id=payment_id)


@task()
def notify_change_request(*, change_request_id: int, event: str) -> None:
    from notifications.messages import change_request_notify

    change_request_notify(change_request_id=change_request_id, event=event)


@task(priority=ORGANIZER_NEWS_PRIORITY)
def send_event_summary(*, event_id: int) -> None:
    from notifications.event_summaries import event_summary_send

    event_summary_send(event_id=event_id)


@task()
def send_event_thanks(*, event_id: int) -> None:
    from notifications.event_thanks import event_thanks_deliver

    event_thanks_deliver(event_id=event_id)
