"""Connected in ``NotificationsConfig.ready``: account, pledge, payment and event news become background
messages. The account, pledge, organization and event signals are sent after commit; ``payment_succeeded`` inside the
crediting transaction, so its messages are enqueued on commit. Either way nothing holds up the money's transaction."""

from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import User
from accounts.signals import password_reset_requested, phone_code_requested, user_signed_up
from campaigns.models import Campaign
from campaigns.signals import campaign_end_date_changed
from events.models import Event
from events.signals import event_closed
from notifications import messages, tasks
from notifications.reminders import reminders_replan
from organizations.models import ChangeRequest, Invitation
from organizations.signals import change_applied, change_requested, invitation_created
from payments.models import Payment, PaymentEvent
from payments.signals import payment_succeeded, payments_succeeded
from pledges.models import Donation, Pledge
from pledges.signals import desk_gift_recorded, pledge_changed, pledge_created, pledge_paid


@receiver(user_signed_up, dispatch_uid="notifications.user_signed_up")
def on_user_signed_up(sender: type[User], user: User, **kwargs: Any) -> None:
    tasks.notify_welcome.enqueue(user_id=user.pk)


@receiver(password_reset_requested, dispatch_uid="notifications.password_reset_requested")
def on_password_reset_requested(sender: type[User], user: User, **kwargs: Any) -> None:
    # Only the user's id goes into the task queue: the link is made as the e-mail is sent.
    tasks.notify_password_reset.enqueue(user_id=user.pk)


@receiver(phone_code_requested, dispatch_uid="notifications.phone_code_requested")
def on_phone_code_requested(sender: type[User], user: User, phone: str, code: str, **kwargs: Any) -> None:
    # Written to the log here, so the code travels in no task's arguments; delivery runs in a task.
    messages.phone_code_queue(user=user, phone=phone, code=code)


@receiver(campaign_end_date_changed, dispatch_uid="notifications.campaign_end_date_changed")
def on_campaign_end_date_changed(sender: type[Campaign], campaign: Campaign, **kwargs: Any) -> None:
    reminders_replan(campaign=campaign)


@receiver(pledge_created, dispatch_uid="notifications.pledge_created")
def on_pledge_created(sender: type[Pledge], pledge: Pledge, **kwargs: Any) -> None:
    tasks.notify_pledge_recorded.enqueue(pledge_id=pledge.pk)
    tasks.notify_organizer_new_pledge.enqueue(pledge_id=pledge.pk)


@receiver(event_closed, dispatch_uid="notifications.event_closed")
def on_event_closed(sender: type[Event], event: Event, **kwargs: Any) -> None:
    tasks.send_event_summary.enqueue(event_id=event.pk)


# Long enough for one Pull to credit every payment it recovered (``payments.services.mpesa_pull_run``).
PULLED_RECEIPT_DELAY = timedelta(minutes=1)


@receiver(pledge_paid, dispatch_uid="notifications.pledge_paid")
def on_pledge_paid(sender: type[Pledge], pledge: Pledge, payment: Payment, fully_paid: bool, **kwargs: Any) -> None:
    # Each payment of a credit calls for its receipt; the first to run tells of them all (one SMS).
    if not payment.notify_payer:
        return
    task = tasks.notify_pledge_payment
    # A Pull credits the payments it recovered one by one: their receipts wait for the last.
    if task.get_backend().supports_defer and payment.events.filter(kind=PaymentEvent.Kind.PULL).exists():
        task = task.using(run_after=timezone.now() + PULLED_RECEIPT_DELAY)
    task.enqueue(pledge_id=pledge.pk, payment_id=payment.pk)


@receiver(pledge_changed, dispatch_uid="notifications.pledge_changed")
def on_pledge_changed(sender: type[Pledge], pledge: Pledge, change: str, **kwargs: Any) -> None:
    # A pledge anonymised since (an account deletion) has no phone left to tell.
    if pledge.phone:
        tasks.notify_pledge_changed.enqueue(pledge_id=pledge.pk, change=change)


@receiver(desk_gift_recorded, dispatch_uid="notifications.desk_gift_recorded")
def on_desk_gift_recorded(sender: type[Donation], donation: Donation, **kwargs: Any) -> None:
    # A gift without a phone is thanked at the desk itself.
    if donation.phone:
        tasks.notify_desk_gift_receipt.enqueue(donation_id=donation.pk)


@receiver(payment_succeeded, dispatch_uid="notifications.payment_succeeded")
def on_payment_succeeded(sender: type[Payment], payment: Payment, **kwargs: Any) -> None:
    transaction.on_commit(partial(_payment_messages_enqueue, [payment]))


@receiver(payments_succeeded, dispatch_uid="notifications.payments_succeeded")
def on_payments_succeeded(sender: type[Payment], payments: list[Payment], **kwargs: Any) -> None:
    transaction.on_commit(partial(_payment_messages_enqueue, payments))


def _payment_messages_enqueue(payments: list[Payment]) -> None:
    """Once the credit is committed (every receiver has had its say: a pledge gave its e-mail address), the
    payers' receipts and a campaign's activation."""
    for payment in payments:
        if payment.contact_email and payment.notify_payer:
            tasks.notify_payment_receipt.enqueue(payment_id=payment.pk)
        # A flagged activation fee found the campaign already active (paid twice): no second e-mail.
        if payment.purpose == Payment.Purpose.CAMPAIGN_ACTIVATION and payment.campaign_id and not payment.flagged:
            tasks.notify_campaign_activated.enqueue(campaign_id=payment.campaign_id, payment_id=payment.pk)


@receiver(change_requested, dispatch_uid="notifications.change_requested")
def on_change_requested(sender: type[ChangeRequest], change_request: ChangeRequest, **kwargs: Any) -> None:
    tasks.notify_change_request.enqueue(change_request_id=change_request.pk, event="requested")


@receiver(change_applied, dispatch_uid="notifications.change_applied")
def on_change_applied(sender: type[ChangeRequest], change_request: ChangeRequest, **kwargs: Any) -> None:
    tasks.notify_change_request.enqueue(change_request_id=change_request.pk, event="applied")


@receiver(invitation_created, dispatch_uid="notifications.invitation_created")
def on_invitation_created(sender: type[Invitation], invitation: Invitation, token: str, **kwargs: Any) -> None:
    # Written to the log here (in the inviter's language), so the link's token is in no task's arguments.
    messages.invitation_queue(invitation=invitation, token=token)
