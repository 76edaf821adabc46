"""Connected in ``ChampionsConfig.ready``: what is attributed to a champion changing recounts their running
totals in the same transaction (``champions_totals_recount``), and a changed champion, team or attribution
renders its campaign's cached views afresh (the leaderboards are kept under the campaign's version:
``champions.selectors``).

Pledges and payments announce a credit or a reversal inside its transaction (``payment_succeeded``,
``payments_succeeded``, ``payments_reversed``) and save a changed pledge or donation (corrected,
cancelled, restored); champions' receivers are connected after pledges' (INSTALLED_APPS order), so they
read what pledges' own receivers wrote. A payment a treasurer assigns to a pledge by hand announces
nothing inside its transaction: it is recounted once it commits (``pledge_paid``). The money is credited
once, by pledges and payments: this only recounts.
"""

import logging
from typing import Any

from django.db import DatabaseError
from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from campaigns.caching import campaign_changed
from champions.models import Attribution, Champion, Team
from champions.services import champions_totals_recount
from payments.models import Payment
from payments.signals import payment_succeeded, payments_reversed, payments_succeeded
from pledges.models import Donation, Pledge
from pledges.signals import pledge_paid

logger = logging.getLogger(__name__)

# The fields a champion's totals are made of; a save of any other (a status, a reminder) changes none.
COUNTED_FIELDS = {Pledge: {"amount", "paid_amount", "cancelled_at", "user"}, Donation: {"amount", "counted_at"}}


@receiver([post_save, post_delete], sender=Champion, dispatch_uid="champions.champion_changed")
@receiver([post_save, post_delete], sender=Team, dispatch_uid="champions.team_changed")
def on_champion_saved(sender: type[Champion | Team], instance: Champion | Team, **kwargs: Any) -> None:
    campaign_changed(campaign_id=instance.campaign_id)


@receiver([post_save, post_delete], sender=Attribution, dispatch_uid="champions.attribution_changed")
def on_attribution_saved(sender: type[Attribution], instance: Attribution, **kwargs: Any) -> None:
    champions_totals_recount(champion_ids=[instance.champion_id])
    campaign_changed(campaign_id=instance.champion.campaign_id)


@receiver(post_save, sender=Pledge, dispatch_uid="champions.pledge_saved")
@receiver(post_save, sender=Donation, dispatch_uid="champions.donation_saved")
def on_gift_saved(
    sender: type[Pledge | Donation],
    instance: Pledge | Donation,
    created: bool,
    update_fields: frozenset[str] | None,
    **kwargs: Any,
) -> None:
    # A new pledge or donation is attributed only after it is saved (``on_attribution_saved``).
    if created or (update_fields is not None and not update_fields & COUNTED_FIELDS[sender]):
        return
    thing = Q(pledge_id=instance.pk) if sender is Pledge else Q(donation_id=instance.pk)
    champions_totals_recount(champion_ids=list(Attribution.objects.filter(thing).values_list("champion_id", flat=True)))


@receiver(payments_succeeded, dispatch_uid="champions.payments_succeeded")
@receiver(payments_reversed, dispatch_uid="champions.payments_reversed")
def on_payments_credited(sender: type[Payment], payments: list[Payment], **kwargs: Any) -> None:
    # Pledges' receivers (connected first) wrote the paid amounts and counted donations in bulk.
    _payments_recount(payments)


@receiver(payment_succeeded, dispatch_uid="champions.payment_succeeded")
def on_payment_credited(sender: type[Payment], payment: Payment, **kwargs: Any) -> None:
    _payments_recount([payment])


def _payments_recount(payments: list[Payment]) -> None:
    brought = Q(donation__payment__in=payments) | Q(pledge__payment_links__payment__in=payments)
    champions_totals_recount(
        champion_ids=set(Attribution.objects.filter(brought).values_list("champion_id", flat=True))
    )


@receiver(pledge_paid, dispatch_uid="champions.pledge_paid")
def on_pledge_paid(sender: type[Pledge], pledge: Pledge, **kwargs: Any) -> None:
    # After the commit; every credit but one assigned by hand was recounted inside it already.
    champion_ids = list(Attribution.objects.filter(pledge=pledge).values_list("champion_id", flat=True))
    try:
        champions_totals_recount(champion_ids=champion_ids)
    except DatabaseError:
        # The credit stands (committed); the pledger's receipt must still go. Their next change recounts.
        logger.exception("Champions %s not recounted after pledge %s was paid", champion_ids, pledge.pk)
