"""Pull Transactions: recovering a connected account's payments that no confirmation reported."""

from dataclasses import asdict
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from common.errors import ServiceError
from payments import selectors
from payments.models import (
    MpesaConnection,
    Payment,
    PaymentEvent,
)
from payments.providers import ProviderError
from payments.services.c2b import _c2b_record
from payments.services.connections import PULL_EVERY, PULL_LOOKBACK, _connection_of, _daraja_call
from payments.services.core import Outcome, _daraja_for, logger


def mpesa_pull_run(*, connection: MpesaConnection) -> dict[str, int]:
    """Ask Pull Transactions for the account's last 48 hours and credit, once by receipt, each
    payment whose confirmation never came; a payment recorded another way gets the Pull as its evidence,
    once. Receipts an earlier Pull brought are skipped before anything is written, so running it often
    adds nothing; a confirmation arriving meanwhile meets the unique receipt and stays the only credit."""
    now = timezone.now()
    client = _daraja_for(connection)
    pulled = client.pull_transactions(start=now - PULL_LOOKBACK, end=now)
    MpesaConnection.objects.filter(pk=connection.pk).update(last_pulled_at=now)
    known = set(
        PaymentEvent.objects.filter(
            kind=PaymentEvent.Kind.PULL,
            payment__in=Payment.objects.holding_receipts(
                organization_id=connection.account.organization_id, receipts=[p.trans_id for p in pulled]
            ),
        ).values_list("payment__mpesa_receipt", flat=True)
    )
    credited = 0
    for transaction_ in pulled:
        if transaction_.trans_id in known:
            continue
        event = _c2b_record(
            notification=transaction_.as_c2b_notification(),
            connection=connection,
            kind=PaymentEvent.Kind.PULL,
            body=asdict(transaction_) | {"trans_time": transaction_.trans_time.isoformat()},
            remote_addr=None,
        )
        credited += event.outcome == Outcome.CREDITED
    return {"pulled": len(pulled), "credited": credited}


def mpesa_pull_now(*, user: User, organization_id: int, account_id: int) -> dict[str, int]:
    """A treasurer's "Pull now"."""
    with transaction.atomic():
        account = selectors.mpesa_account_for_manager(
            user=user, organization_id=organization_id, account_id=account_id, lock=True
        )
        connection = _connection_of(account)
        if connection.pull_registered_at is None:
            raise ServiceError(_("Connect the account first."), code="mpesa_not_connected")
    return _daraja_call(account, lambda: mpesa_pull_run(connection=connection))


def mpesa_pull_due(*, every: timedelta = PULL_EVERY) -> dict[str, int]:
    """Pull every connected account not pulled for ``every`` (run each minute by the scheduler, so
    each account is pulled about every ten). An account is claimed by moving its ``last_pulled_at``
    first, so two schedulers never pull the same one at once; either would credit nothing twice."""
    now = timezone.now()
    due = MpesaConnection.objects.filter(pull_registered_at__isnull=False).filter(
        Q(last_pulled_at__isnull=True) | Q(last_pulled_at__lt=now - every)
    )
    totals = {"accounts": 0, "pulled": 0, "credited": 0, "failed": 0}
    for connection in due.select_related("account"):
        claimed = MpesaConnection.objects.filter(pk=connection.pk, last_pulled_at=connection.last_pulled_at).update(
            last_pulled_at=now
        )
        if not claimed:
            continue
        totals["accounts"] += 1
        try:
            counts = mpesa_pull_run(connection=connection)
        except ProviderError as exc:
            logger.warning("Pull Transactions of collection account %s failed: %s", connection.account_id, exc)
            totals["failed"] += 1
            continue
        totals["pulled"] += counts["pulled"]
        totals["credited"] += counts["credited"]
    return totals
