"""Stale intents: asking providers, expiring, reconciling; and erasing a user's personal data."""

from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from payments import selectors
from payments.models import (
    Payment,
    PaymentEvent,
)
from payments.providers.daraja import DarajaClient
from payments.services.card_payments import _card_verify
from payments.services.core import EXPIRE_AFTER, QUERY_AFTER, QUERY_THROTTLE_SECONDS, Status, c2b_callback_urls
from payments.services.stk import payment_stk_query

# Stale intents -----------------------------------------------------------------------------


def _provider_refresh(payment: Payment) -> Payment:
    if payment.provider == Payment.Provider.MPESA_STK:
        return payment_stk_query(payment=payment)
    if payment.provider == Payment.Provider.CARD:
        _card_verify(payment)
        payment.refresh_from_db()
    if payment.provider == Payment.Provider.AIRTEL:
        from payments.airtel import payment_airtel_enquire  # it builds on this package

        return payment_airtel_enquire(payment=payment)
    return payment


def payment_status_check(*, reference: str, user: User | None) -> Payment:
    """A payment for a polling client. An intent pending past ``QUERY_AFTER`` is first
    looked up at the provider (at most every ``QUERY_THROTTLE_SECONDS``)."""
    payment = selectors.payment_get_for_viewer(reference=reference, user=user)
    stale = payment.created_at < timezone.now() - QUERY_AFTER
    if (
        payment.is_pending
        and not payment.flagged
        and stale
        and cache.add(f"payments:refresh:{payment.pk}", 1, QUERY_THROTTLE_SECONDS)
    ):
        payment = _provider_refresh(payment)
    return payment


@transaction.atomic
def payment_expire_stale(*, older_than: timedelta = EXPIRE_AFTER) -> int:
    """Expire intents nobody paid. Flagged ones wait for a person; a late success still credits."""
    stale = Payment.objects.select_for_update().filter(
        status=Status.PENDING,
        flagged=False,
        provider__in=[Payment.Provider.MPESA_STK, Payment.Provider.CARD, Payment.Provider.AIRTEL],
        created_at__lt=timezone.now() - older_than,
    )
    ids = list(stale.values_list("pk", flat=True))
    return Payment.objects.filter(pk__in=ids, status=Status.PENDING).update(
        status=Status.EXPIRED, result_desc="No answer from the payer in time."
    )


def payments_reconcile(
    *, query_after: timedelta = QUERY_AFTER, expire_after: timedelta = EXPIRE_AFTER
) -> dict[str, int]:
    """Ask the providers about every intent whose callback is overdue, then expire the old ones."""
    queried = 0
    for payment in selectors.payments_awaiting_outcome(older_than=query_after):
        _provider_refresh(payment)
        queried += 1
    return {"queried": queried, "expired": payment_expire_stale(older_than=expire_after)}


def mpesa_c2b_urls_register() -> dict[str, Any]:
    """Register our confirmation and validation URLs for the shortcode (once per deployment)."""
    confirmation_url, validation_url = c2b_callback_urls()
    return DarajaClient.from_settings().register_c2b_urls(
        confirmation_url=confirmation_url, validation_url=validation_url
    )


@transaction.atomic
def payments_personal_data_erase(*, user: User) -> None:
    """Forget who paid the user's payments (an account deletion, ``privacy``): the payer's number
    and address, and the provider bodies that carried them (STK phone numbers, C2B names, card
    customers). Amounts, receipts and outcomes stay on the payments and events, so the ledger
    still adds up and can be audited."""
    payments = selectors.payments_made_by(user=user)
    PaymentEvent.objects.filter(payment__in=payments).update(body={"erased": "personal data"})
    payments.update(payer_phone="", payer_email="")
