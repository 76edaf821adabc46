"""Reversals: what a reversed payment takes back from its pledge or donation."""

from collections import defaultdict

from payments.models import Payment
from pledges.models import (
    CampaignFigures,
    Donation,
    Pledge,
    PledgePayment,
)
from pledges.services.core import _changed, _status_settle
from pledges.services.matching import _campaigns_move, _donation_figures, _pledges_payments_write


def payments_record_reversed(*, payments: list[Payment]) -> None:
    """Take back what reversed payments counted (the ``payments_reversed`` receiver, inside the reversing
    transaction with the payments locked), in a number of queries that does not grow with theirs: their
    pledges' paid amounts and statuses, or their donations; the campaigns' counters move with them, and
    each pledger told of a reversed credit hears once (one never told of it is not told of its reversal)."""
    links = PledgePayment.objects.filter(payment__in=payments).values_list("payment_id", "pledge_id")
    pledge_of = dict(links)
    pledges = {
        pledge.pk: pledge
        for pledge in Pledge.objects.select_for_update().filter(pk__in=set(pledge_of.values())).order_by("pk")
    }
    change: defaultdict[int, CampaignFigures] = defaultdict(CampaignFigures)
    confirmed_before = {pledge.pk: (pledge.confirmed_at, pledge.confirmed_by_id) for pledge in pledges.values()}
    figures = {pledge.pk: pledge.campaign_figures() for pledge in pledges.values()}
    told: set[int] = set()  # the pledges whose pledger was told of a reversed credit (sent its receipt)
    for payment in payments:
        if payment.pk in pledge_of:
            pledges[pledge_of[payment.pk]].paid_amount -= payment.amount
            if payment.notify_payer:
                told.add(pledge_of[payment.pk])
    for pledge in pledges.values():
        _status_settle(pledge, by=None)
        change[pledge.campaign_id] += pledge.campaign_figures() - figures[pledge.pk]
        if pledge.pk in told:
            _changed(pledge, "payment_reversed")
    _pledges_payments_write(list(pledges.values()), confirmed_before=confirmed_before)
    donations = list(
        Donation.objects.filter(payment__in=[payment for payment in payments if payment.pk not in pledge_of])
        .filter(counted_at__isnull=False)
        .order_by("pk")
    )
    for donation in donations:
        figures_before = _donation_figures(donation)
        donation.counted_at = None
        change[donation.campaign_id] += _donation_figures(donation) - figures_before
    Donation.objects.filter(pk__in=[donation.pk for donation in donations]).update(counted_at=None)
    _campaigns_move(change)
