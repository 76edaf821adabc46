"""Connected in ``PledgesConfig.ready``: succeeded and reversed payments reach pledges and donations."""

from typing import Any

from django.dispatch import receiver

from payments.models import Payment
from payments.signals import payment_reversed, payment_succeeded
from pledges.services import payment_record_reversed, payment_record_succeeded


@receiver(payment_succeeded, dispatch_uid="pledges.payment_succeeded")
def on_payment_succeeded(sender: type[Payment], payment: Payment, **kwargs: Any) -> None:
    payment_record_succeeded(payment=payment)


@receiver(payment_reversed, dispatch_uid="pledges.payment_reversed")
def on_payment_reversed(sender: type[Payment], payment: Payment, **kwargs: Any) -> None:
    payment_record_reversed(payment=payment)
