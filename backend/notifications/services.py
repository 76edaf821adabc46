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
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.tokens import password_reset_url
from campaigns.models import Campaign, CampaignStatus
from common import ratelimit
from common.errors import FieldValidationError, ServiceError
from common.money import format_ksh
from notifications import tasks
from notifications.models import (
    DEFAULT_REMINDER_OFFSETS,
    CampaignReminderSettings,
    NotificationLog,
    PledgeDigest,
    PledgeOptOut,
    Reminder,
    known_offsets,
)
from notifications.selectors import notifications_sent_to, opt_out_pledge_get, opt_out_token, reminders_campaign_get
from notifications.sms import SmsError, sms_send
from organizations.roles import Permission
from payments.models import Payment
from pledges.models import Pledge, PledgeStatus
from pledges.selectors import pledge_managed_get, pledges_made_by

logger = logging.getLogger(__name__)

NAIROBI = ZoneInfo("Africa/Nairobi")
# Reminders tied to a date (before or on the end date) fall due at this local time that day.
REMINDER_TIME = time(8)
# A reminder is sent only within a day of falling due: long enough to wait out quiet hours (or a
# scheduler down for a while), short enough that an offset added later, or reminders turned back
# on, does not remind every older pledge at once of a date long past.
REMINDER_FRESH_FOR = timedelta(days=1)
# The organizers' daily digest of new pledges goes out at this local time (before quiet hours).
DIGEST_TIME = time(18)
# Seconds to wait before each retry of a failed delivery (the first attempt is immediate).
RETRY_DELAYS = (60, 300, 1800)
OFFSET_PATTERN = re.compile(r"^(pledge)\+(\d{1,3})$|^(end)-(\d{1,3})$")
UNPAID = (PledgeStatus.PENDING, PledgeStatus.PARTLY_PAID)


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
    headers: dict[str, str] | None = None,
) -> NotificationLog:
    return NotificationLog.objects.create(
        channel=NotificationLog.Channel.EMAIL,
        recipient=to,
        template=f"email/{template}",
        subject=subject,
        body=render_to_string(f"notifications/email/{template}.txt", context),
        html_body=render_to_string(f"notifications/email/{template}.html", context),
        headers=headers or {},
        pledge=pledge,
        payment=payment,
    )


def _provider_send(log: NotificationLog) -> str:
    """Hand one message to its provider: the provider's message id, or an exception."""
    if log.channel == NotificationLog.Channel.SMS:
        return sms_send(to=log.recipient, message=log.body)
    message = EmailMultiAlternatives(subject=log.subject, body=log.body, to=[log.recipient], headers=log.headers)
    message.attach_alternative(log.html_body, "text/html")
    message.send()
    return ""


# Messages carrying a key (the password-reset link's uid and token): removed from the log's copy
# once delivery is settled, so staff who read the log (Django admin) and backups never hold it.
KEYS_IN_MESSAGES = {"email/password_reset": re.compile(r"(?<=/reset-password)\?[^\s\"<]+")}
KEY_REMOVED = "?[removed]"


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
        retry = log.attempts <= len(RETRY_DELAYS) and tasks.deliver_notification.get_backend().supports_defer
        # A failure that will be retried is a warning; one given up on needs someone to look.
        logger.log(
            logging.WARNING if retry else logging.ERROR,
            "Could not send %s %s (message %s): %s",
            "e-mail" if log.channel == NotificationLog.Channel.EMAIL else "SMS",
            log.template,
            log.pk,
            error,
        )
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
    if key := KEYS_IN_MESSAGES.get(log.template):
        # Sent or given up on: the log keeps the message, not a key to someone's account.
        log.body, log.html_body = key.sub(KEY_REMOVED, log.body), key.sub(KEY_REMOVED, log.html_body)
    log.save(update_fields=["attempts", "error", "status", "sent_at", "provider_message_id", "body", "html_body"])
    return log


def _deliver_all(logs: list[NotificationLog]) -> None:
    for log in logs:
        notification_deliver(log_id=log.pk)


def _pledge_context(pledge: Pledge) -> dict[str, Any]:
    return {
        "pledge": pledge,
        "campaign": pledge.campaign,
        "amount": format_ksh(pledge.amount),
        "paid": format_ksh(pledge.paid_amount),
        "remaining": format_ksh(pledge.remaining_amount),
        "paybill": settings.MPESA_SHORTCODE,
        # The pledger's own page (frontend /pledges/{code}): what is paid, how to pay, 'Pay now with M-Pesa'.
        "pay_url": f"{settings.SITE_URL}/pledges/{pledge.code}",
        "site_url": settings.SITE_URL,
    }


def pledge_recorded_notify(*, pledge_id: int) -> None:
    """The pledger's confirmation: amount, campaign, code and how to pay, by e-mail and SMS."""
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    with translation.override(pledge.language):
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
    ``payment_receipt_notify``'s), and a thank-you by e-mail and SMS once the pledge is fully paid."""
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    with translation.override(pledge.language):
        payment = Payment.objects.get(pk=payment_id)
        context = {**_pledge_context(pledge), "payment": payment, "payment_amount": format_ksh(payment.amount)}
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


def _receipt_language(payment: Payment) -> str:
    """The language the payer gave or pledged in, else their profile's."""
    if donation := getattr(payment, "donation", None):
        return donation.language
    if pledge_link := getattr(payment, "pledge_link", None):
        return pledge_link.pledge.language
    return payment.user.message_language if payment.user else settings.LANGUAGE_CODE


def payment_receipt_notify(*, payment_id: int) -> None:
    """The e-mailed receipt of any succeeded payment (a donation, a pledge's instalment, a fee),
    to the address given with it or else the payer's account, in the payer's language."""
    payment = (
        Payment.objects.select_related("campaign", "user", "donation", "pledge_link__pledge")
        .filter(pk=payment_id)
        .first()
    )
    if payment is None or payment.status != Payment.Status.SUCCEEDED or not payment.contact_email:
        return
    pledge_link = getattr(payment, "pledge_link", None)
    with translation.override(_receipt_language(payment)):
        context = {
            "payment": payment,
            "amount": format_ksh(payment.amount),
            "paid_at": timezone.localtime(payment.settled_at) if payment.settled_at else None,
            "site_url": settings.SITE_URL,
        }
        subject = _("Your Harambee receipt %(number)s") % {"number": payment.receipt_number}
        _deliver_all(
            [
                notification_queue_email(
                    to=payment.contact_email,
                    subject=subject,
                    template="receipt",
                    context=context,
                    pledge=pledge_link.pledge if pledge_link else None,
                    payment=payment,
                )
            ]
        )


def user_welcome_notify(*, user_id: int) -> None:
    """The welcome e-mail after sign-up."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    with translation.override(user.message_language):
        context = {"user": user, "site_url": settings.SITE_URL}
        _deliver_all(
            [
                notification_queue_email(
                    to=user.email, subject=_("Welcome to Harambee"), template="welcome", context=context
                )
            ]
        )


def password_reset_notify(*, user_id: int) -> None:
    """The e-mail carrying the signed, single-use link to /reset-password. The link is made here,
    so it is in no task's arguments, and taken out of the message log once delivery is settled."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    with translation.override(user.message_language):
        context = {"user": user, "reset_url": password_reset_url(user), "site_url": settings.SITE_URL}
        subject = _("Reset your Harambee password")
        _deliver_all(
            [notification_queue_email(to=user.email, subject=subject, template="password_reset", context=context)]
        )


def _manage_url(campaign: Campaign) -> str:
    # Pledge Management is a section of the campaign's page, shown to its organizer and admins.
    return f"{settings.SITE_URL}/campaign/{campaign.pk}"


def _wants_digest(campaign: Campaign) -> bool:
    try:
        return campaign.reminder_settings.new_pledge_digest
    except CampaignReminderSettings.DoesNotExist:
        return False


def organizer_new_pledge_notify(*, pledge_id: int) -> None:
    """Tell the organizer about a new pledge at once, unless they chose the daily digest."""
    pledge = Pledge.objects.select_related("campaign__organizer", "campaign__reminder_settings").get(pk=pledge_id)
    campaign = pledge.campaign
    if _wants_digest(campaign):
        return
    with translation.override(campaign.organizer.message_language):
        context = {
            "pledge": pledge,
            "campaign": campaign,
            "amount": format_ksh(pledge.amount),
            "manage_url": _manage_url(campaign),
        }
        subject = _("New pledge: %(amount)s to %(campaign)s") % {
            "amount": context["amount"],
            "campaign": campaign.title,
        }
        _deliver_all(
            [
                notification_queue_email(
                    to=campaign.organizer.email, subject=subject, template="new_pledge", context=context, pledge=pledge
                )
            ]
        )


def campaign_activated_notify(*, campaign_id: int, payment_id: int) -> None:
    """The organizer's e-mail once their activation fee is paid and the campaign is live."""
    campaign = Campaign.objects.select_related("organizer").get(pk=campaign_id)
    if campaign.status != CampaignStatus.ACTIVE:
        return
    with translation.override(campaign.organizer.message_language):
        payment = Payment.objects.get(pk=payment_id)
        context = {
            "campaign": campaign,
            "organizer": campaign.organizer,
            "fee": format_ksh(payment.amount),
            "campaign_url": _manage_url(campaign),
            "site_url": settings.SITE_URL,
        }
        subject = _("%(campaign)s is now live") % {"campaign": campaign.title}
        _deliver_all(
            [
                notification_queue_email(
                    to=campaign.organizer.email,
                    subject=subject,
                    template="campaign_activated",
                    context=context,
                    payment=payment,
                )
            ]
        )


# Reminders ---------------------------------------------------------------------------------


def is_quiet_hours(moment: datetime) -> bool:
    """Whether ``moment`` falls in the night when no reminder goes out (``REMINDER_QUIET_HOURS``,
    21:00 to 07:00 Nairobi time unless set otherwise)."""
    if settings.REMINDER_QUIET_HOURS is None:
        return False
    quiet_from, quiet_until = settings.REMINDER_QUIET_HOURS
    local = moment.astimezone(NAIROBI).time()
    return local >= time(quiet_from) or local < time(quiet_until)


def quiet_hours_end(moment: datetime) -> datetime:
    """The morning (07:00 Nairobi by default) that ends the quiet hours ``moment`` falls in."""
    assert settings.REMINDER_QUIET_HOURS is not None
    until = time(settings.REMINDER_QUIET_HOURS[1])
    local = moment.astimezone(NAIROBI)
    day = local.date() if local.time() < until else local.date() + timedelta(days=1)
    return datetime.combine(day, until, tzinfo=NAIROBI)


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


def _opt_out_url(pledge: Pledge) -> str:
    return f"{settings.SITE_URL}/api/notifications/opt-out?token={opt_out_token(pledge)}"


def reminders_send_due(*, now: datetime | None = None) -> int:
    """Enqueue the reminders that are due at ``now``; the number enqueued.

    Only unpaid pledges of active, not yet ended campaigns with reminders on, whose pledger did
    not opt out. Nothing in quiet hours (they go out on the first run after 07:00). An offset is
    due for ``REMINDER_FRESH_FOR`` after its time, and not at all if it falls before a reminder
    the pledge already had. Of several offsets due at once only the latest is sent, the rest
    skipped. Each (pledge, offset) row is created once, under its unique constraint, so two
    schedulers running at the same moment send one reminder.
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
        reminders = pledge.reminders.all()
        done = {reminder.offset for reminder in reminders}
        last_sent = max((reminder.sent_at for reminder in reminders if reminder.sent_at), default=None)
        due = sorted(
            (due_at, offset)
            for offset in _reminder_offsets(pledge.campaign)
            if offset not in done
            and pledge.created_at < (due_at := reminder_due_at(pledge=pledge, offset=offset)) <= now
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
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    still_wanted = (
        pledge.status in UNPAID
        and pledge.campaign.status == CampaignStatus.ACTIVE
        and not PledgeOptOut.objects.filter(pledge=pledge).exists()
    )
    if not still_wanted:
        if reminder_id is not None:
            Reminder.objects.filter(pk=reminder_id).update(status=Reminder.Status.SKIPPED, sent_at=None)
        return False
    with translation.override(pledge.language):
        opt_out_url = _opt_out_url(pledge)
        context = {**_pledge_context(pledge), "opt_out_url": opt_out_url}
        subject = _("Reminder: %(remaining)s left on your pledge to %(campaign)s") % {
            "remaining": context["remaining"],
            "campaign": pledge.campaign.title,
        }
        _deliver_all(
            [
                notification_queue_sms(to=pledge.phone, template="reminder", context=context, pledge=pledge),
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
                ),
            ]
        )
    return True


@transaction.atomic
def pledge_opt_out(*, token: str) -> Pledge:
    """Stop reminders for the pledge the signed ``token`` names (idempotent); ServiceError if forged."""
    pledge = opt_out_pledge_get(token=token)
    PledgeOptOut.objects.get_or_create(pledge=pledge)
    return pledge


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
        _digest_final_queue(campaign=campaign)
    return settings_row


# Organizers' daily digest ------------------------------------------------------------------


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


def _digest_final_queue(*, campaign: Campaign) -> None:
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
                {"name": pledge.name, "code": pledge.code, "amount": format_ksh(pledge.amount)} for pledge in pledges
            ],
            "total": total,
            "manage_url": _manage_url(campaign),
            "site_url": settings.SITE_URL,
        }
        _deliver_all(
            [
                notification_queue_email(
                    to=campaign.organizer.email, subject=headline, template="pledge_digest", context=context
                )
            ]
        )


@transaction.atomic
def notifications_personal_data_erase(*, user: User) -> None:
    """Forget the messages sent to the user (an account deletion, ``privacy``): only that they were
    sent stays. Their pledges get no more reminders, which would have nowhere to go; a message
    still queued is never sent (delivery skips what is no longer queued). Runs before pledges
    forget the contact details that find those messages (``notifications_sent_to``)."""
    pledge_ids = pledges_made_by(user=user).values_list("pk", flat=True)
    PledgeOptOut.objects.bulk_create([PledgeOptOut(pledge_id=pk) for pk in pledge_ids], ignore_conflicts=True)
    logs = notifications_sent_to(user=user)
    logs.filter(status=NotificationLog.Status.QUEUED).update(status=NotificationLog.Status.FAILED)
    logs.update(recipient="", subject="", body="", html_body="", headers={}, error="")
