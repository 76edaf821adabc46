"""Connected in ``NotificationsConfig.ready``: pledge and payment events become background messages.
The pledge signals are sent after commit; ``payment_succeeded`` inside the crediting transaction,
so its messages are enqueued on commit. Either way nothing holds up the money's transaction."""

from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from notifications import tasks
from payments.models import Payment
from payments.signals import payment_succeeded
from pledges.models import Pledge
from pledges.signals import pledge_changed, pledge_created, pledge_paid


@receiver(pledge_created, dispatch_uid="notifications.pledge_created")
def on_pledge_created(sender: type[Pledge], pledge: Pledge, **kwargs: Any) -> None:
    tasks.notify_pledge_recorded.enqueue(pledge_id=pledge.pk)
    tasks.notify_organizer_new_pledge.enqueue(pledge_id=pledge.pk)


@receiver(pledge_paid, dispatch_uid="notifications.pledge_paid")
def on_pledge_paid(sender: type[Pledge], pledge: Pledge, payment: Payment, fully_paid: bool, **kwargs: Any) -> None:
    tasks.notify_pledge_payment.enqueue(pledge_id=pledge.pk, payment_id=payment.pk, fully_paid=fully_paid)


@receiver(pledge_changed, dispatch_uid="notifications.pledge_changed")
def on_pledge_changed(sender: type[Pledge], pledge: Pledge, change: str, **kwargs: Any) -> None:
    # A pledge anonymised since (an account deletion) has no phone left to tell.
    if pledge.phone:
        tasks.notify_pledge_changed.enqueue(pledge_id=pledge.pk, change=change)


@receiver(payment_succeeded, dispatch_uid="notifications.payment_succeeded")
def on_payment_succeeded(sender: type[Payment], payment: Payment, **kwargs: Any) -> None:
    if payment.contact_email:
        transaction.on_commit(partial(tasks.notify_payment_receipt.enqueue, payment_id=payment.pk))
    # A flagged activation fee found the campaign already active (paid twice): no second e-mail.
    if payment.purpose == Payment.Purpose.CAMPAIGN_ACTIVATION and payment.campaign_id and not payment.flagged:
        transaction.on_commit(
            partial(tasks.notify_campaign_activated.enqueue, campaign_id=payment.campaign_id, payment_id=payment.pk)
        )
