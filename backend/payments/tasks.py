from typing import Any

from django_tasks import task

from payments.models import Payment

# The services enqueue these tasks, so each task imports them when it runs (no import cycle).


@task()
def reconcile_payments() -> dict[str, Any]:
    """What ``manage.py payments_reconcile`` does, for a scheduler that enqueues tasks."""
    from payments import services

    return services.payments_reconcile()


@task()
def stk_success_confirm(payment_id: int) -> str:
    """Ask Daraja how the STK Push of a payment ended, after a success callback nobody vouched for
    (``services.payment_record_stk_callback``): credited only if Daraja says it succeeded; while the
    payer's answer is still being processed the payment stays pending (reconciliation asks again)."""
    from payments import services

    payment = Payment.objects.get(pk=payment_id)
    if payment.status != Payment.Status.SUCCEEDED:
        payment = services.payment_stk_query(payment=payment)
    return payment.status


@task()
def airtel_success_confirm(payment_id: int) -> str:
    """Ask Airtel how a push ended after an unsigned success callback (``airtel.payment_record_airtel_callback``):
    credited only if Airtel's enquiry says it succeeded."""
    from payments import airtel

    payment = Payment.objects.get(pk=payment_id)
    if payment.status != Payment.Status.SUCCEEDED:
        payment = airtel.payment_airtel_enquire(payment=payment)
    return payment.status
