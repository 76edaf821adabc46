"""Connected in ``PledgesConfig.ready``: succeeded and reversed payments reach pledges and donations, and a
changed pledge or donation renders its campaign's public view afresh (``campaigns.caching``).

Model signals for the latter rather than calls in each service, so no write path is missed: the
pledges and payments services, the Django admin, the demo data. The counters' ``F()`` updates send
no signal, but each runs in the transaction that saves the pledge or donation it counts, which does.
"""

from typing import Any

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from campaigns.caching import campaign_changed
from payments.models import Payment
from payments.signals import payment_succeeded, payments_reversed, payments_succeeded
from pledges.models import Donation, Pledge
from pledges.services import payment_record_succeeded, payments_record_reversed, payments_record_succeeded


@receiver(payment_succeeded, dispatch_uid="pledges.payment_succeeded")
def on_payment_succeeded(sender: type[Payment], payment: Payment, **kwargs: Any) -> None:
    payment_record_succeeded(payment=payment)


@receiver(payments_succeeded, dispatch_uid="pledges.payments_succeeded")
def on_payments_succeeded(sender: type[Payment], payments: list[Payment], **kwargs: Any) -> None:
    payments_record_succeeded(payments=payments)


@receiver(payments_reversed, dispatch_uid="pledges.payments_reversed")
def on_payments_reversed(sender: type[Payment], payments: list[Payment], **kwargs: Any) -> None:
    payments_record_reversed(payments=payments)


@receiver([post_save, post_delete], sender=Pledge, dispatch_uid="pledges.pledge_changed")
@receiver([post_save, post_delete], sender=Donation, dispatch_uid="pledges.donation_changed")
def on_activity_saved(sender: type[Pledge | Donation], instance: Pledge | Donation, **kwargs: Any) -> None:
    campaign_changed(campaign_id=instance.campaign_id)
