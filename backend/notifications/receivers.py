"""Connected in ``NotificationsConfig.ready``: pledge events become background messages.
The signals are sent after commit, so enqueueing here never holds up the money's transaction."""

from typing import Any

from django.dispatch import receiver

from notifications import tasks
from payments.models import Payment
from pledges.models import Pledge
from pledges.signals import pledge_created, pledge_paid


@receiver(pledge_created, dispatch_uid="notifications.pledge_created")
def on_pledge_created(sender: type[Pledge], pledge: Pledge, **kwargs: Any) -> None:
    tasks.notify_pledge_recorded.enqueue(pledge_id=pledge.pk)


@receiver(pledge_paid, dispatch_uid="notifications.pledge_paid")
def on_pledge_paid(sender: type[Pledge], pledge: Pledge, payment: Payment, fully_paid: bool, **kwargs: Any) -> None:
    tasks.notify_pledge_payment.enqueue(pledge_id=pledge.pk, payment_id=payment.pk, fully_paid=fully_paid)
