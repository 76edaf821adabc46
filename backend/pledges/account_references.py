"""Account references that are not pledge codes, resolved by the apps above pledges.

Matching (``pledges.services._organization_payments_match``) credits a payment whose account
reference is a live pledge's code. An app above pledges that issues account numbers of its own (a
champion's code: ``champions``) registers a claimer here in its ``AppConfig.ready``; matching offers it
the payments of one organization that no pledge code matched, inside the crediting transaction with
those payments locked, before keywords and near-codes are tried. A claimer credits what it recognises
(through pledges' and payments' own services, so the money still goes through the one ledger) and
answers the ids of the payments it took; the rest stay unmatched as before.

A registry rather than an import: pledges may not import the apps above it (docs/architecture/layers.md).
"""

from collections.abc import Callable

from payments.models import Payment

# (organization id, its succeeded pledge payments that matched no pledge code) -> ids of those it credited
Claimer = Callable[[int, list[Payment]], set[int]]

_claimers: list[Claimer] = []


def claimer_register(claimer: Claimer) -> None:
    """Offer ``claimer`` the unmatched payments from now on (once, however often it is registered)."""
    if claimer not in _claimers:
        _claimers.append(claimer)


def payments_claim(*, organization_id: int, payments: list[Payment]) -> list[Payment]:
    """Let each registered claimer take what it recognises; answers the payments none took."""
    for claimer in _claimers:
        if not payments:
            break
        taken = claimer(organization_id, payments)
        payments = [payment for payment in payments if payment.pk not in taken]
    return payments
