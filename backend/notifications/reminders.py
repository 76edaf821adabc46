"""Pledge reminders: one per pledge and offset, within a day of falling due, none at night (the
send step puts a late one off until quiet hours end), none once paid or opted out; an organizer's
reminder on demand; the campaign's reminder settings.

A pledge with an instalment plan follows the plan instead of the campaign's offsets: a reminder
3 days before each instalment it has not yet covered (``due@<date>``) and one 2 days after an
instalment it missed (``late@<date>``), so a pledger on track or ahead hears nothing more. These
keys take the place of the offsets in the unique ``Reminder`` row, and a plan may run past the
campaign's end date, so its reminders do too.

A plan its pledger pays automatically (an approved M-Pesa Ratiba standing order) needs no reminder
before each instalment: while the executions arrive on time there are none, and once an instalment
is missed (the plan is behind) the reminders before and after each instalment resume.
"""

import re
from datetime import date, datetime, time, timedelta
from functools import partial

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.models import Campaign, CampaignStatus
from common import ratelimit
from common.errors import FieldValidationError, ServiceError
from common.money import format_ksh
from notifications import tasks
from notifications.digests import digest_final_queue
from notifications.messages import pledge_context
from notifications.models import (
    DEFAULT_REMINDER_OFFSETS,
    CampaignReminderSettings,
    PledgeOptOut,
    Reminder,
    known_offsets,
)
from notifications.outbox import (
    NAIROBI,
    deliver_all,
    is_quiet_hours,
    notification_queue_email,
    notification_queue_sms,
    quiet_hours_end,
)
from notifications.selectors import opt_out_pledge_get, opt_out_token, reminders_campaign_get
from organizations.roles import Permission
from pledges.instalments import Instalment, Standing
from pledges.models import InstalmentPlan, Pledge, PledgeStatus
from pledges.selectors import pledge_managed_get

REMINDER_TIME = time(8)


# A reminder is sent only within a day of falling due: long enough to wait out quiet hours (or a
# scheduler down for a while), short enough that an offset added later, or reminders turned back
# on, does not remind every older pledge at once of a date long past.
REMINDER_FRESH_FOR = timedelta(days=1)


OFFSET_PATTERN = re.compile(r"^(pledge)\+(\d{1,3})$|^(end)-(\d{1,3})$")


UNPAID = (PledgeStatus.PENDING, PledgeStatus.PARTLY_PAID)

# A plan's reminders: this long before an instalment falls due, and after one is missed.
PLAN_BEFORE_DUE = timedelta(days=3)
PLAN_AFTER_MISSED = timedelta(days=2)
PLAN_BEFORE_KEY, PLAN_LATE_KEY = "due@", "late@"


def reminder_due_at(*, pledge: Pledge, offset: str) -> datetime:
    """When the reminder at ``offset`` (one of ``REMINDER_OFFSET_CHOICES``) falls due for ``pledge``."""
    match = OFFSET_PATTERN.match(offset)
    if match is None:
        raise ValueError(f"Unknown reminder offset {offset!r}")
    if match.group(1):
        return pledge.created_at + timedelta(days=int(match.group(2)))
    day = pledge.campaign.end_date - timedelta(days=int(match.group(4)))
    return datetime.combine(day, REMINDER_TIME, tzinfo=NAIROBI)


def _reminder_offsets(campaign: Campaign) -> list[str]:
    try:
        return known_offsets(campaign.reminder_settings.offsets)
    except CampaignReminderSettings.DoesNotExist:
        return list(DEFAULT_REMINDER_OFFSETS)


def _at_reminder_time(day: date) -> datetime:
    return datetime.combine(day, REMINDER_TIME, tzinfo=NAIROBI)


def plan_reminders(*, plan: InstalmentPlan, today: date) -> list[tuple[datetime, str]]:
    """The reminders ``plan`` calls for as its pledge stands on ``today``, (due at, key): before and
    after each instalment its payments do not cover yet (payments count against the instalments in
    order); only after, while a standing order pays it on time."""
    paid = plan.pledge.paid_amount
    on_time = plan.pays_automatically and plan.standing(today).standing != Standing.BEHIND
    return [
        reminder
        for instalment in plan.schedule()
        if instalment.due_by_then > paid
        for reminder in (
            (_at_reminder_time(instalment.due_on - PLAN_BEFORE_DUE), f"{PLAN_BEFORE_KEY}{instalment.due_on}"),
            (_at_reminder_time(instalment.due_on + PLAN_AFTER_MISSED), f"{PLAN_LATE_KEY}{instalment.due_on}"),
        )
        if not (on_time and reminder[1].startswith(PLAN_BEFORE_KEY))
    ]


def _offset_reminders(pledge: Pledge) -> list[tuple[datetime, str]]:
    return [(reminder_due_at(pledge=pledge, offset=offset), offset) for offset in _reminder_offsets(pledge.campaign)]


def _plan_instalment(plan: InstalmentPlan, key: str) -> Instalment | None:
    """The instalment a plan reminder's key names, if the plan still has it."""
    due_on = key.removeprefix(PLAN_BEFORE_KEY).removeprefix(PLAN_LATE_KEY)
    return next((instalment for instalment in plan.schedule() if str(instalment.due_on) == due_on), None)


def _instalment_context(pledge: Pledge, key: str) -> dict[str, object]:
    """What a plan reminder says: which instalment, how much of it is left, and when it falls or fell due."""
    plan = pledge.plan
    instalment = _plan_instalment(plan, key) if plan and key.startswith((PLAN_BEFORE_KEY, PLAN_LATE_KEY)) else None
    if instalment is None:
        return {}
    left = min(instalment.amount, instalment.due_by_then - pledge.paid_amount)
    return {
        "instalment": format_ksh(max(left, 0)),
        "instalment_due_on": date_format(instalment.due_on, "j F Y"),
        "instalment_missed": key.startswith(PLAN_LATE_KEY),
    }


def _opt_out_url(pledge: Pledge) -> str:
    return f"{settings.SITE_URL}/api/notifications/opt-out?token={opt_out_token(pledge)}"


def reminders_send_due(*, now: datetime | None = None) -> int:
    """Enqueue the reminders that are due at ``now``; the number enqueued.

    Only unpaid pledges of active, not yet ended campaigns (or with a plan, which may run past
    the end) with reminders on, whose pledger did not opt out. Nothing in quiet hours (they go out on the first run after 07:00). An offset is
    due for ``REMINDER_FRESH_FOR`` after its time, and not at all if it falls before a reminder
    the pledge already had. Of several offsets due at once only the latest is sent, the rest
    skipped. Each (pledge, offset) row is created once, under its unique constraint, so two
    schedulers running at the same moment send one reminder.
    """
    now = now or timezone.now()
    if is_quiet_hours(now):
        return 0
    pledges = (
        Pledge.objects.live()
        .filter(
            Q(campaign__end_date__gte=now.astimezone(NAIROBI).date()) | Q(instalment_plan__isnull=False),
            status__in=UNPAID,
            campaign__status=CampaignStatus.ACTIVE,
            opt_out__isnull=True,
        )
        .exclude(campaign__reminder_settings__enabled=False)
        .select_related("campaign__reminder_settings", "instalment_plan__standing_order")
        .prefetch_related("reminders")
        .order_by("pk")
    )
    enqueued = 0
    for pledge in pledges.iterator(chunk_size=500):
        reminders = pledge.reminders.all()
        done = {reminder.offset for reminder in reminders}
        last_sent = max((reminder.sent_at for reminder in reminders if reminder.sent_at), default=None)
        plan = pledge.plan
        candidates = (
            plan_reminders(plan=plan, today=now.astimezone(NAIROBI).date())
            if plan is not None
            else _offset_reminders(pledge)
        )
        due = sorted(
            (due_at, offset)
            for due_at, offset in candidates
            if offset not in done
            and pledge.created_at < due_at <= now
            and now - due_at < REMINDER_FRESH_FOR
            and (last_sent is None or due_at > last_sent)
        )
        for position, (_due_at, offset) in enumerate(due):
            latest = position == len(due) - 1
            with transaction.atomic():
                reminder, created = Reminder.objects.get_or_create(
                    pledge=pledge,
                    offset=offset,
                    defaults={"status": Reminder.Status.SCHEDULED if latest else Reminder.Status.SKIPPED},
                )
                if created and latest:
                    enqueued += 1
                    transaction.on_commit(
                        partial(tasks.send_pledge_reminder.enqueue, pledge_id=pledge.pk, reminder_id=reminder.pk)
                    )
    return enqueued


def reminder_still_wanted(pledge: Pledge) -> bool:
    """Whether a reminder queued for ``pledge`` should still go out when its turn comes: not once it is
    paid or cancelled, its campaign no longer active, or its pledger opted out."""
    return (
        pledge.status in UNPAID
        and pledge.is_live
        and pledge.campaign.status == CampaignStatus.ACTIVE
        and not PledgeOptOut.objects.filter(pledge=pledge).exists()
    )


def pledge_reminder_send(*, pledge_id: int, reminder_id: int | None) -> bool:
    """Send one reminder (automatic, or manual without ``reminder_id``) by SMS and e-mail, unless
    the pledge got paid, its campaign closed or its pledger opted out since; True if sent. In quiet
    hours (a manual one in the evening, an automatic one taken on before 21:00 but run late) it is
    put off until 07:00 instead, where the task backend can defer."""
    now = timezone.now()
    if is_quiet_hours(now) and tasks.send_pledge_reminder.get_backend().supports_defer:
        tasks.send_pledge_reminder.using(run_after=quiet_hours_end(now)).enqueue(
            pledge_id=pledge_id, reminder_id=reminder_id
        )
        return False
    # Claim the reminder before sending: a job that runs twice (a retry, an operator's requeue) finds
    # it no longer scheduled and sends nothing. At most once: a crash after the claim sends none.
    if reminder_id is not None:
        claimed = Reminder.objects.filter(pk=reminder_id, status=Reminder.Status.SCHEDULED).update(
            status=Reminder.Status.SENT, sent_at=now
        )
        if not claimed:
            return False
    pledge = Pledge.objects.select_related("campaign", "instalment_plan").get(pk=pledge_id)
    if not reminder_still_wanted(pledge):
        if reminder_id is not None:
            Reminder.objects.filter(pk=reminder_id).update(status=Reminder.Status.SKIPPED, sent_at=None)
        return False
    with translation.override(pledge.language):
        opt_out_url = _opt_out_url(pledge)
        key = Reminder.objects.get(pk=reminder_id).offset if reminder_id is not None else ""
        context = {**pledge_context(pledge), **_instalment_context(pledge, key), "opt_out_url": opt_out_url}
        subject = _("Reminder: %(remaining)s left on your pledge to %(campaign)s") % {
            "remaining": context["remaining"],
            "campaign": pledge.campaign.title,
        }
        logs = [
            notification_queue_sms(
                to=pledge.phone,
                template="reminder",
                context=context,
                shortenable={"title": pledge.campaign.title},
                pledge=pledge,
            )
        ]
        if pledge.email:  # none for a pledge made by phone (USSD)
            logs.append(
                notification_queue_email(
                    to=pledge.email,
                    subject=subject,
                    template="reminder",
                    context=context,
                    pledge=pledge,
                    # Mail programs show their own 'Unsubscribe', which POSTs here at once (RFC 8058).
                    headers={
                        "List-Unsubscribe": f"<{opt_out_url}>",
                        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                    },
                )
            )
        deliver_all(logs)
    return True


def reminders_replan(*, campaign: Campaign) -> int:
    """After ``campaign``'s end date moved: its reminders tied to the end date fall due from the new
    date, as ``reminder_due_at`` reads it. Those never sent (skipped beside a later one, or while the
    campaign was shut) are forgotten, so they can fall due again at the new date; a sent one stays,
    so no pledger gets the same reminder twice. The number forgotten."""
    deleted, _by_model = Reminder.objects.filter(
        pledge__campaign=campaign, offset__startswith="end-", status=Reminder.Status.SKIPPED
    ).delete()
    return deleted


@transaction.atomic
def pledge_opt_out(*, token: str) -> Pledge:
    """Stop reminders for the pledge the signed ``token`` names (idempotent); ServiceError if forged."""
    pledge = opt_out_pledge_get(token=token)
    PledgeOptOut.objects.get_or_create(pledge=pledge)
    return pledge


@transaction.atomic
def phone_reminders_opt_out(*, phone: str) -> int:
    """Stop reminders for every live pledge naming ``phone`` (E.164), as its owner asked by texting
    STOP from it (the mobile network gave the number). Receipts still come. Pledges made later get
    their reminders: pledging again is asking again. How many pledges were opted out now."""
    pledge_ids = list(Pledge.objects.live().filter(phone=phone, opt_out__isnull=True).values_list("pk", flat=True))
    PledgeOptOut.objects.bulk_create([PledgeOptOut(pledge_id=pk) for pk in pledge_ids], ignore_conflicts=True)
    return len(pledge_ids)


def pledge_remind(*, pledge_id: int, user: User) -> Pledge:
    """Pledge Management's 'Remind': one reminder now (by SMS and e-mail, in the background; in quiet
    hours at 07:00). Only the campaign's owners and treasurers or an admin; at most
    ``RATE_LIMIT_PLEDGE_REMIND`` per pledge."""
    pledge = pledge_managed_get(
        pledge_id=pledge_id,
        user=user,
        permission=Permission.MANAGE_PLEDGES,
        denied=_("Only the campaign's owners and treasurers, or an admin, can send reminders."),
    )
    if not pledge.is_live:
        raise ServiceError(_("This pledge is cancelled. Restore it first."), code="pledge_cancelled")
    if pledge.status not in UNPAID:
        raise ServiceError(_("This pledge is already fully paid."), code="pledge_paid")
    if pledge.campaign.status != CampaignStatus.ACTIVE:
        raise ServiceError(_("Reminders can only be sent for active campaigns."), code="campaign_not_active")
    if PledgeOptOut.objects.filter(pledge=pledge).exists():
        raise ServiceError(_("This pledger asked not to get reminders."), code="opted_out")
    ratelimit.enforce(
        scope="pledge-remind",
        identifiers=[str(pledge.pk)],
        limit=settings.RATE_LIMIT_PLEDGE_REMIND,
        message=_("A reminder was sent for this pledge recently. Please try again later."),
    )
    transaction.on_commit(partial(tasks.send_pledge_reminder.enqueue, pledge_id=pledge.pk, reminder_id=None))
    return pledge


@transaction.atomic
def reminder_settings_update(
    *, campaign_id: int, user: User, enabled: bool, offsets: list[str], new_pledge_digest: bool
) -> CampaignReminderSettings:
    """Save the organizer's choices: reminders on or off, at which of ``REMINDER_OFFSET_CHOICES``,
    and new pledges by e-mail one by one or in a daily digest. Turning the digest off sends the
    pledges it has not listed yet at once: their organizer has heard of none of them."""
    campaign = reminders_campaign_get(campaign_id=campaign_id, user=user, permission=Permission.MANAGE_PLEDGES)
    # Locked: of two saves at once turning the digest off, one sends the last digest.
    previous = CampaignReminderSettings.objects.select_for_update().filter(campaign=campaign).first()
    chosen = CampaignReminderSettings(
        campaign=campaign, enabled=enabled, offsets=offsets, new_pledge_digest=new_pledge_digest
    )
    try:
        chosen.full_clean(exclude=["campaign"])
    except ValidationError as error:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={field: messages[0] for field, messages in error.message_dict.items()},
        ) from error
    settings_row, _created = CampaignReminderSettings.objects.update_or_create(
        campaign=campaign,
        defaults={"enabled": enabled, "offsets": known_offsets(offsets), "new_pledge_digest": new_pledge_digest},
    )
    if previous is not None and previous.new_pledge_digest and not new_pledge_digest:
        digest_final_queue(campaign=campaign)
    return settings_row
