"""A champion's 'Remind my circle': one SMS to each person who pledged through them and still owes.

The champion (or the campaign's owners and treasurers) presses it; each pledge that still owes gets a
reminder in the background, worded as coming from the champion, unless its pledger opted out of
reminders or had a reminder (the campaign's, the organizer's or a champion's) in the last
``CIRCLE_REMINDER_GAP``: those are skipped, and counted. At most ``RATE_LIMIT_PLEDGE_REMIND`` presses
per champion. The SMS is one the recipient did not ask for, so the per-recipient limits apply
(``recipient_limits``); sent in quiet hours it waits for the morning, as the organizer's reminder does.
"""

from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.models import CampaignStatus
from champions.models import Champion
from champions.services import champion_get
from common import ratelimit
from common.errors import PermissionDeniedError, ServiceError
from notifications import tasks
from notifications.messages import pledge_context
from notifications.models import NotificationLog, PledgeOptOut
from notifications.outbox import deliver_all, is_quiet_hours, notification_queue_sms, quiet_hours_end
from notifications.reminders import UNPAID, reminder_still_wanted
from organizations.roles import Permission
from pledges.models import Pledge

CIRCLE_REMINDER_GAP = timedelta(days=3)
REMINDER_TEMPLATES = ("sms/reminder", "email/reminder", "sms/circle_reminder")


@dataclass(frozen=True)
class CircleReminders:
    sent: int
    """Reminders queued: one per pledge that still owes."""
    skipped: int
    """Pledges that still owe but were not reminded: opted out, or reminded recently."""


def _owing_pledges(champion: Champion) -> list[Pledge]:
    """The live pledges made through ``champion`` that still owe, each marked ``skip`` when its pledger
    opted out or was reminded within ``CIRCLE_REMINDER_GAP``. One query."""
    recently = timezone.now() - CIRCLE_REMINDER_GAP
    return list(
        Pledge.objects.live()
        .filter(champion_attribution__champion=champion, status__in=UNPAID)
        .exclude(phone="")
        .annotate(
            opted_out=Exists(PledgeOptOut.objects.filter(pledge=OuterRef("pk"))),
            reminded=Exists(
                NotificationLog.objects.filter(
                    pledge=OuterRef("pk"), template__in=REMINDER_TEMPLATES, created_at__gte=recently
                )
            ),
        )
        .order_by("pk")
    )


def champion_circle_remind(*, campaign_id: int, code: str, user: User) -> CircleReminders:
    """Queue a reminder to everyone in the champion's circle who still owes (see the module's rules)."""
    champion = champion_get(campaign_id=campaign_id, code=code, user=user)
    campaign = champion.campaign
    if champion.user_id != user.pk and not campaign.allows(user, Permission.MANAGE_PLEDGES):
        raise PermissionDeniedError(
            _("Only the champion, or the campaign's owners and treasurers, can remind their circle."),
            code="not_champion",
        )
    if campaign.status != CampaignStatus.ACTIVE:
        raise ServiceError(_("Reminders can only be sent for active campaigns."), code="campaign_not_active")
    ratelimit.enforce(
        scope="circle-remind",
        identifiers=[str(champion.pk)],
        limit=settings.RATE_LIMIT_PLEDGE_REMIND,
        message=_("Your circle was reminded recently. Please try again later."),
    )
    owing = _owing_pledges(champion)
    to_remind = [pledge.pk for pledge in owing if not (pledge.opted_out or pledge.reminded)]  # type: ignore[attr-defined]
    for pledge_id in to_remind:
        transaction.on_commit(partial(tasks.send_circle_reminder.enqueue, pledge_id=pledge_id, champion_id=champion.pk))
    return CircleReminders(sent=len(to_remind), skipped=len(owing) - len(to_remind))


def circle_reminder_send(*, pledge_id: int, champion_id: int) -> bool:
    """Send one champion's reminder by SMS, unless the pledge got paid or cancelled, its campaign closed
    or its pledger opted out since; True if sent. In quiet hours it is put off until 07:00 instead,
    where the task backend can defer."""
    now = timezone.now()
    if is_quiet_hours(now) and tasks.send_circle_reminder.get_backend().supports_defer:
        tasks.send_circle_reminder.using(run_after=quiet_hours_end(now)).enqueue(
            pledge_id=pledge_id, champion_id=champion_id
        )
        return False
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    champion = Champion.objects.filter(pk=champion_id).first()
    if champion is None or not reminder_still_wanted(pledge):
        return False
    with translation.override(pledge.language):
        log = notification_queue_sms(
            to=pledge.phone,
            template="circle_reminder",
            context=pledge_context(pledge),
            shortenable={"champion": champion.name, "title": pledge.campaign.title},
            pledge=pledge,
        )
    deliver_all([log])
    return True
