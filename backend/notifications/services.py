"""Sending messages (logged, retried with back-off) and the pledge reminders.

Every message is first written to ``NotificationLog`` (queued) with its rendered text, then
handed to the provider by ``notification_deliver``: in a task, never in the web request. A
provider error is recorded on the log and retried later (``RETRY_DELAYS``) by re-enqueueing the
delivery task; after the last attempt the log stays ``failed``.
"""

import logging
import re
from datetime import datetime, time, timedelta
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.models import Campaign, CampaignStatus
from common import ratelimit
from common.errors import RateLimitedError, ServiceError
from notifications import tasks
from notifications.models import (
    DEFAULT_REMINDER_OFFSETS,
    CampaignReminderSettings,
    NotificationLog,
    PledgeOptOut,
    Reminder,
)
from notifications.sms import SmsError, sms_send
from payments.models import Payment
from pledges.models import Pledge, PledgeStatus
from pledges.selectors import pledge_managed_get

logger = logging.getLogger(__name__)

NAIROBI = ZoneInfo("Africa/Nairobi")
# No reminders from 21:00 to 07:00 Nairobi time: due ones wait for the first run after 07:00.
QUIET_FROM, QUIET_UNTIL = time(21), time(7)
# Reminders tied to a date (before or on the end date) fall due at this local time that day.
REMINDER_TIME = time(8)
# Seconds to wait before each retry of a failed delivery (the first attempt is immediate).
RETRY_DELAYS = (60, 300, 1800)
OFFSET_PATTERN = re.compile(r"^(pledge)\+(\d{1,3})$|^(end)-(\d{1,3})$")
OPT_OUT_SALT = "notifications.opt-out"
UNPAID = (PledgeStatus.PENDING, PledgeStatus.PARTLY_PAID)


def ksh(amount: int) -> str:
    return f"Ksh {amount:,}"


# Messages ----------------------------------------------------------------------------------


def _sms_text(template: str, context: dict[str, Any]) -> str:
    # Templates wrap for readability; an SMS is one paragraph (every character counts).
    return " ".join(render_to_string(f"notifications/sms/{template}.txt", context).split())


def notification_queue_sms(
    *, to: str, template: str, context: dict[str, Any], pledge: Pledge | None = None, payment: Payment | None = None
) -> NotificationLog:
    return NotificationLog.objects.create(
        channel=NotificationLog.Channel.SMS,
        recipient=to,
        template=f"sms/{template}",
        body=_sms_text(template, context),
        pledge=pledge,
        payment=payment,
    )


def notification_queue_email(
    *,
    to: str,
    subject: str,
    template: str,
    context: dict[str, Any],
    pledge: Pledge | None = None,
    payment: Payment | None = None,
) -> NotificationLog:
    return NotificationLog.objects.create(
        channel=NotificationLog.Channel.EMAIL,
        recipient=to,
        template=f"email/{template}",
        subject=subject,
        body=render_to_string(f"notifications/email/{template}.txt", context),
        html_body=render_to_string(f"notifications/email/{template}.html", context),
        pledge=pledge,
        payment=payment,
    )


def _provider_send(log: NotificationLog) -> str:
    """Hand one message to its provider: the provider's message id, or an exception."""
    if log.channel == NotificationLog.Channel.SMS:
        return sms_send(to=log.recipient, message=log.body)
    message = EmailMultiAlternatives(subject=log.subject, body=log.body, to=[log.recipient])
    message.attach_alternative(log.html_body, "text/html")
    message.send()
    return ""


def notification_deliver(*, log_id: int) -> NotificationLog:
    """Try to send a queued message once. On a provider error the error is recorded and, while
    attempts remain and the task backend can defer, a retry is enqueued after a back-off."""
    log = NotificationLog.objects.get(pk=log_id)
    if log.status != NotificationLog.Status.QUEUED:
        return log
    log.attempts += 1
    try:
        log.provider_message_id = _provider_send(log)
    except (SmsError, OSError) as error:
        log.error = str(error)[:1000]
        logger.warning("Could not send %s %s to %s: %s", log.channel, log.template, log.recipient, error)
        retry = log.attempts <= len(RETRY_DELAYS) and tasks.deliver_notification.get_backend().supports_defer
        if retry:
            run_after = timezone.now() + timedelta(seconds=RETRY_DELAYS[log.attempts - 1])
            log.save(update_fields=["attempts", "error"])
            tasks.deliver_notification.using(run_after=run_after).enqueue(log_id=log.pk)
            return log
        log.status = NotificationLog.Status.FAILED
    else:
        log.status = NotificationLog.Status.SENT
        log.sent_at = timezone.now()
        log.error = ""
    log.save(update_fields=["attempts", "error", "status", "sent_at", "provider_message_id"])
    return log


def _deliver_all(logs: list[NotificationLog]) -> None:
    for log in logs:
        notification_deliver(log_id=log.pk)


def _pledge_context(pledge: Pledge) -> dict[str, Any]:
    return {
        "pledge": pledge,
        "campaign": pledge.campaign,
        "amount": ksh(pledge.amount),
        "paid": ksh(pledge.paid_amount),
        "remaining": ksh(pledge.remaining_amount),
        "paybill": settings.MPESA_SHORTCODE,
        # The pledger's own page (frontend /pledges/{code}): what is paid, how to pay, 'Pay now with M-Pesa'.
        "pay_url": f"{settings.SITE_URL}/pledges/{pledge.code}",
        "site_url": settings.SITE_URL,
    }


def pledge_recorded_notify(*, pledge_id: int) -> None:
    """The pledger's confirmation: amount, campaign, code and how to pay, by e-mail and SMS."""
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    context = _pledge_context(pledge)
    subject = _("Your pledge %(code)s to %(campaign)s") % {"code": pledge.code, "campaign": pledge.campaign.title}
    _deliver_all(
        [
            notification_queue_email(
                to=pledge.email, subject=subject, template="pledge_recorded", context=context, pledge=pledge
            ),
            notification_queue_sms(to=pledge.phone, template="pledge_recorded", context=context, pledge=pledge),
        ]
    )


def pledge_payment_notify(*, pledge_id: int, payment_id: int, fully_paid: bool) -> None:
    """A payment counted towards a pledge: an SMS receipt to the pledger (the e-mail receipt is
    the payments app's), and a thank-you by e-mail and SMS once the pledge is fully paid."""
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    payment = Payment.objects.get(pk=payment_id)
    context = {**_pledge_context(pledge), "payment": payment, "payment_amount": ksh(payment.amount)}
    logs = [
        notification_queue_sms(
            to=pledge.phone, template="payment_received", context=context, pledge=pledge, payment=payment
        )
    ]
    if fully_paid:
        subject = _("Thank you: your pledge to %(campaign)s is fully paid") % {"campaign": pledge.campaign.title}
        logs += [
            notification_queue_email(
                to=pledge.email, subject=subject, template="pledge_paid", context=context, pledge=pledge
            ),
            notification_queue_sms(to=pledge.phone, template="pledge_paid", context=context, pledge=pledge),
        ]
    _deliver_all(logs)


# Reminders ---------------------------------------------------------------------------------


def is_quiet_hours(moment: datetime) -> bool:
    local = moment.astimezone(NAIROBI).time()
    return local >= QUIET_FROM or local < QUIET_UNTIL


def reminder_due_at(*, pledge: Pledge, offset: str) -> datetime | None:
    """When the reminder at ``offset`` falls due for ``pledge``; None for an offset it cannot read."""
    match = OFFSET_PATTERN.match(offset)
    if match is None:
        return None
    if match.group(1):
        return pledge.created_at + timedelta(days=int(match.group(2)))
    day = pledge.campaign.end_date - timedelta(days=int(match.group(4)))
    return datetime.combine(day, REMINDER_TIME, tzinfo=NAIROBI)


def _reminder_offsets(campaign: Campaign) -> list[str]:
    try:
        return list(campaign.reminder_settings.offsets)
    except CampaignReminderSettings.DoesNotExist:
        return list(DEFAULT_REMINDER_OFFSETS)


def opt_out_token(pledge: Pledge) -> str:
    return signing.dumps(pledge.pk, salt=OPT_OUT_SALT)


def reminders_send_due(*, now: datetime | None = None) -> int:
    """Enqueue the reminders that are due at ``now``; the number enqueued.

    Only unpaid pledges of active, not yet ended campaigns with reminders on, whose pledger did
    not opt out. Nothing in quiet hours (they go out on the first run after 07:00). Of several
    offsets due at once (the scheduler was down) only the latest is sent, the rest skipped. Each
    (pledge, offset) row is created once, under its unique constraint, so two schedulers running
    at the same moment send one reminder.
    """
    now = now or timezone.now()
    if is_quiet_hours(now):
        return 0
    pledges = (
        Pledge.objects.filter(
            status__in=UNPAID,
            campaign__status=CampaignStatus.ACTIVE,
            campaign__end_date__gte=now.astimezone(NAIROBI).date(),
            opt_out__isnull=True,
        )
        .exclude(campaign__reminder_settings__enabled=False)
        .select_related("campaign__reminder_settings")
        .prefetch_related("reminders")
        .order_by("pk")
    )
    enqueued = 0
    for pledge in pledges.iterator(chunk_size=500):
        done = {reminder.offset for reminder in pledge.reminders.all()}
        due = sorted(
            (due_at, offset)
            for offset in _reminder_offsets(pledge.campaign)
            if offset not in done
            and (due_at := reminder_due_at(pledge=pledge, offset=offset)) is not None
            and pledge.created_at < due_at <= now
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


def pledge_reminder_send(*, pledge_id: int, reminder_id: int | None) -> bool:
    """Send one reminder (automatic, or manual without ``reminder_id``) by SMS and e-mail, unless
    the pledge got paid, its campaign closed or its pledger opted out since; True if sent."""
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    reminder = Reminder.objects.get(pk=reminder_id) if reminder_id else None
    still_wanted = (
        pledge.status in UNPAID
        and pledge.campaign.status == CampaignStatus.ACTIVE
        and not PledgeOptOut.objects.filter(pledge=pledge).exists()
    )
    if not still_wanted:
        if reminder is not None:
            reminder.status = Reminder.Status.SKIPPED
            reminder.save(update_fields=["status"])
        return False
    context = {
        **_pledge_context(pledge),
        "opt_out_url": f"{settings.SITE_URL}/api/notifications/opt-out?token={opt_out_token(pledge)}",
    }
    subject = _("Reminder: %(remaining)s left on your pledge to %(campaign)s") % {
        "remaining": context["remaining"],
        "campaign": pledge.campaign.title,
    }
    _deliver_all(
        [
            notification_queue_sms(to=pledge.phone, template="reminder", context=context, pledge=pledge),
            notification_queue_email(
                to=pledge.email, subject=subject, template="reminder", context=context, pledge=pledge
            ),
        ]
    )
    if reminder is not None:
        reminder.status = Reminder.Status.SENT
        reminder.sent_at = timezone.now()
        reminder.save(update_fields=["status", "sent_at"])
    return True


def pledge_opt_out(*, token: str) -> Pledge:
    """Stop reminders for the pledge the signed ``token`` names (idempotent); ServiceError if forged."""
    try:
        pledge_id = signing.loads(token, salt=OPT_OUT_SALT)
    except signing.BadSignature as error:
        raise ServiceError(_("This link is not valid."), code="invalid_token") from error
    pledge = Pledge.objects.filter(pk=pledge_id).first()
    if pledge is None:
        raise ServiceError(_("This link is not valid."), code="invalid_token")
    PledgeOptOut.objects.get_or_create(pledge=pledge)
    return pledge


def pledge_remind(*, pledge_id: int, user: User) -> Pledge:
    """The organizer's 'Remind': one reminder now (by SMS and e-mail, in the background). Only the
    campaign's organizer or an admin; at most ``RATE_LIMIT_PLEDGE_REMIND`` per pledge."""
    pledge = pledge_managed_get(
        pledge_id=pledge_id, user=user, denied=_("Only the campaign's organizer or an admin can send reminders.")
    )
    if pledge.status not in UNPAID:
        raise ServiceError(_("This pledge is already fully paid."), code="pledge_paid")
    if pledge.campaign.status != CampaignStatus.ACTIVE:
        raise ServiceError(_("Reminders can only be sent for active campaigns."), code="campaign_not_active")
    if PledgeOptOut.objects.filter(pledge=pledge).exists():
        raise ServiceError(_("This pledger asked not to get reminders."), code="opted_out")
    attempts, window = settings.RATE_LIMIT_PLEDGE_REMIND
    identifiers = [str(pledge.pk)]
    if ratelimit.is_limited(scope="pledge-remind", identifiers=identifiers, limit=attempts):
        raise RateLimitedError(
            _("A reminder was sent for this pledge recently. Please try again later."), code="rate_limited"
        )
    ratelimit.record_attempt(scope="pledge-remind", identifiers=identifiers, window_seconds=window)
    transaction.on_commit(partial(tasks.send_pledge_reminder.enqueue, pledge_id=pledge.pk, reminder_id=None))
    return pledge
