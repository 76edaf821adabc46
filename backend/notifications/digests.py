"""The organizers' daily digest of new pledges: at most one scheduled a campaign a day, a last one
when it is turned off, no pledge in two (a unique ``PledgeDigest`` (campaign, day) row, each
covering the time since the previous one)."""

from datetime import datetime, time, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, QuerySet
from django.utils import timezone, translation
from django.utils.translation import ngettext

from campaigns.models import Campaign
from common.money import format_ksh
from notifications import tasks
from notifications.messages import campaign_manage_url
from notifications.models import (
    PledgeDigest,
)
from notifications.outbox import NAIROBI, deliver_all, is_quiet_hours, notification_queue_email
from pledges.models import Pledge, shown_giver_name

# The organizers' daily digest of new pledges goes out at this local time (before quiet hours).
DIGEST_TIME = time(18)


def _digest_pledges(*, campaign_id: int, since: datetime, until: datetime) -> QuerySet[Pledge]:
    # A pledge its organizer already heard of one by one (the digest was off then) is left out.
    return Pledge.objects.filter(campaign_id=campaign_id, created_at__gte=since, created_at__lt=until).exclude(
        notifications__template="email/new_pledge"
    )


def pledge_digests_send_due(*, now: datetime | None = None) -> int:
    """Enqueue today's digest for every campaign whose organizer chose one and that has new
    pledges; the number enqueued. Due from ``DIGEST_TIME`` until quiet hours start; a digest
    covers the pledges since the campaign's previous one (a day missed is caught up the next
    day). The unique (campaign, day) row makes a second or concurrent run send nothing more."""
    now = now or timezone.now()
    local = now.astimezone(NAIROBI)
    if is_quiet_hours(now) or local.time() < DIGEST_TIME:
        return 0
    until = datetime.combine(local.date(), DIGEST_TIME, tzinfo=NAIROBI)
    campaigns = (
        Campaign.objects.filter(reminder_settings__new_pledge_digest=True)
        .exclude(Exists(PledgeDigest.objects.filter(campaign=OuterRef("pk"), day=local.date(), final=False)))
        .annotate(last_until=Max("pledge_digests__covers_until"))
        .order_by("pk")
    )
    enqueued = 0
    for campaign in campaigns:
        since = campaign.last_until or until - timedelta(days=1)
        if not _digest_pledges(campaign_id=campaign.pk, since=since, until=until).exists():
            continue
        with transaction.atomic():
            digest, created = PledgeDigest.objects.get_or_create(
                campaign=campaign, day=local.date(), final=False, defaults={"covers_from": since, "covers_until": until}
            )
            if created:
                enqueued += 1
                transaction.on_commit(partial(tasks.send_pledge_digest.enqueue, digest_id=digest.pk))
    return enqueued


def digest_final_queue(*, campaign: Campaign) -> None:
    """The organizer turned the digest off: the pledges since its previous digest (or over the last
    day), which they have heard nothing of, in a last digest now, enqueued once committed. It is
    not the day's scheduled digest (a day may have both); the caller's lock on the settings row
    keeps it to one each time the digest is turned off."""
    now = timezone.now()
    last_until = PledgeDigest.objects.filter(campaign=campaign).aggregate(last=Max("covers_until"))["last"]
    since = last_until or now - timedelta(days=1)
    if not _digest_pledges(campaign_id=campaign.pk, since=since, until=now).exists():
        return
    digest = PledgeDigest.objects.create(
        campaign=campaign, day=now.astimezone(NAIROBI).date(), final=True, covers_from=since, covers_until=now
    )
    transaction.on_commit(partial(tasks.send_pledge_digest.enqueue, digest_id=digest.pk))


def pledge_digest_send(*, digest_id: int) -> None:
    """E-mail one digest to the campaign's organizer: each new pledge with its amount and code."""
    digest = PledgeDigest.objects.select_related("campaign__organizer").get(pk=digest_id)
    campaign = digest.campaign
    pledges = list(
        _digest_pledges(campaign_id=campaign.pk, since=digest.covers_from, until=digest.covers_until).order_by(
            "created_at", "pk"
        )
    )
    if not pledges:
        return
    with translation.override(campaign.organizer.message_language):
        count, total = len(pledges), format_ksh(sum(pledge.amount for pledge in pledges))
        headline = ngettext("%(count)d new pledge to %(campaign)s", "%(count)d new pledges to %(campaign)s", count) % {
            "count": count,
            "campaign": campaign.title,
        }
        context = {
            "campaign": campaign,
            "headline": headline,
            "rows": [
                {
                    "name": shown_giver_name(pledge.name, pledge.phone),
                    "code": pledge.code,
                    "amount": format_ksh(pledge.amount),
                }
                for pledge in pledges
            ],
            "total": total,
            "manage_url": campaign_manage_url(campaign),
            "site_url": settings.SITE_URL,
        }
        deliver_all(
            [
                notification_queue_email(
                    to=campaign.organizer.email, subject=headline, template="pledge_digest", context=context
                )
            ]
        )
