"""Attribution: what the apps that use the ledger tell it about a payment (pledges, mostly).

Which campaign the money was for, when it counted towards it, where its receipt goes and whether it
is set aside are learned where the payment is matched; payments writes them, as it writes every column
of ``Payment``. Only these columns: an amount or a status is never anyone else's to change.
"""

from collections.abc import Collection, Sequence
from typing import Any

from payments.models import Payment
from payments.services.core import BULK_BATCH_SIZE

ATTRIBUTION_FIELDS = frozenset({"campaign", "counted_at", "payer_email", "set_aside"})


def _attribution_only(fields: Collection[str]) -> None:
    if not fields or not set(fields) <= ATTRIBUTION_FIELDS:
        raise ValueError(f"Only {sorted(ATTRIBUTION_FIELDS)} are attributed, not {sorted(fields)}.")


def payments_attribute(*, payments: Sequence[Payment], fields: Sequence[str]) -> None:
    """Save ``fields`` (attribution columns only) as the caller set them on these payments, inside the
    caller's transaction: one UPDATE for one payment, a batched one for many."""
    _attribution_only(fields)
    if len(payments) == 1:
        payments[0].save(update_fields=list(fields))
    elif payments:
        Payment.objects.bulk_update(payments, list(fields), batch_size=BULK_BATCH_SIZE)


def payments_attribute_where(*, payment_ids: Collection[int], **columns: Any) -> int:
    """Set attribution columns of these payments in one UPDATE; a value may be a database expression
    (a subquery of the caller's own tables). The number of rows changed."""
    _attribution_only(columns)
    return Payment.objects.filter(pk__in=payment_ids).update(**columns)
