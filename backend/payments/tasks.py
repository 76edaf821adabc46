from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from common.email import send_templated_email
from payments.models import Payment


@task()
def send_payment_receipt(*, payment_id: int) -> None:
    payment = (
        Payment.objects.select_related("campaign", "user", "donation", "pledge_link__pledge")
        .filter(pk=payment_id)
        .first()
    )
    if payment is None or payment.status != Payment.Status.SUCCEEDED or not payment.contact_email:
        return
    # A failure is logged by send_templated_email; the payment stands either way.
    with translation.override(_receipt_language(payment)):
        send_templated_email(
            to=payment.contact_email,
            subject=_("Your Harambee receipt %(number)s") % {"number": payment.receipt_number},
            template="payments/email/receipt",
            context={
                "payment": payment,
                "amount": f"Ksh {payment.amount:,}",
                "paid_at": timezone.localtime(payment.settled_at) if payment.settled_at else None,
                "site_url": settings.SITE_URL,
            },
        )


def _receipt_language(payment: Payment) -> str:
    """The language the payer gave or pledged in, else their profile's."""
    if donation := getattr(payment, "donation", None):
        return donation.language
    if pledge_link := getattr(payment, "pledge_link", None):
        return pledge_link.pledge.language
    return payment.user.message_language if payment.user else settings.LANGUAGE_CODE


@task()
def reconcile_payments() -> dict[str, Any]:
    """What ``manage.py payments_reconcile`` does, for a scheduler that enqueues tasks."""
    from payments.services import payments_reconcile  # services import this module's tasks

    return payments_reconcile()
