"""Sending messages: each is first written to ``NotificationLog`` (queued) with its rendered text,
then handed to the provider by ``notification_deliver``: in a task, never in the web request. A
provider error is recorded on the log and retried later (``RETRY_DELAYS``) by re-enqueueing the
delivery task; after the last attempt the log stays ``failed``. Also when messages may go out
(quiet hours, Nairobi time) and forgetting them (an account deletion).
"""

import base64
import logging
import re
from collections.abc import Callable
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from common.network import network_call_check
from notifications import recipient_limits, tasks
from notifications.models import (
    NotificationLog,
    PledgeOptOut,
)
from notifications.selectors import notifications_sent_to
from notifications.sms import SmsError, sms_send
from notifications.sms_length import gsm_plain, sms_length
from payments.models import Payment
from pledges.models import Pledge
from pledges.selectors import pledges_made_by

logger = logging.getLogger(__name__)


# Seconds to wait before each retry of a failed delivery (the first attempt is immediate).
RETRY_DELAYS = (60, 300, 1800)


NAIROBI = ZoneInfo("Africa/Nairobi")


# The shortest a shortened title or name gets: still recognisable, with its "..." after it.
SHORTENED_MIN = 12
ELLIPSIS = "..."  # three dots: the ellipsis character is not in the GSM alphabet


def sms_fit(compose: Callable[[dict[str, str]], str], shortenable: dict[str, str]) -> str:
    """The text ``compose`` makes of ``shortenable`` (titles, names: words that may lose their end), in one
    SMS where it can be: while it is too long, the longest of them is cut by what is over, down to
    ``SHORTENED_MIN``. The facts (amounts, codes, dates, links) are the rest of the text and never cut.
    Typographic characters are sent as their GSM equivalents (``gsm_plain``); a single line."""
    kept = {key: len(value) for key, value in shortenable.items()}

    def shown(key: str) -> str:
        value = shortenable[key]
        return value if kept[key] >= len(value) else value[: kept[key]].rstrip() + ELLIPSIS

    while True:
        text = gsm_plain(" ".join(compose({key: shown(key) for key in shortenable}).split()))
        over = -sms_length(text).remaining
        candidates = [key for key in shortenable if kept[key] > SHORTENED_MIN]
        if over <= 0 or not candidates:
            return text
        longest = max(candidates, key=lambda key: len(shown(key)))
        kept[longest] = max(SHORTENED_MIN, min(kept[longest], len(shown(longest))) - over - len(ELLIPSIS))


def sms_text(*, template: str, context: dict[str, Any], shortenable: dict[str, str]) -> str:
    """The SMS ``template`` renders of ``context`` and ``shortenable``, fitted to one SMS (``sms_fit``)."""
    return sms_fit(
        lambda values: render_to_string(f"notifications/sms/{template}.txt", {**context, **values}), shortenable
    )


def notification_queue_sms(
    *,
    to: str,
    template: str,
    context: dict[str, Any],
    shortenable: dict[str, str] | None = None,
    pledge: Pledge | None = None,
    payment: Payment | None = None,
    link_id: str = "",
) -> NotificationLog:
    """Queue the SMS ``template`` renders of ``context`` and ``shortenable`` (values the template shows,
    shortened where the text would not fit one SMS: ``sms_fit``); ``link_id``: the gateway's id of the
    text it answers on a premium shortcode."""
    return NotificationLog.objects.create(
        channel=NotificationLog.Channel.SMS,
        recipient=to,
        template=f"sms/{template}",
        body=sms_text(template=template, context=context, shortenable=shortenable or {}),
        pledge=pledge,
        payment=payment,
        link_id=link_id,
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
    attachments: list[tuple[str, str, bytes]] | None = None,
) -> NotificationLog:
    """Queue the e-mail ``template`` renders of ``context``; ``attachments``: (file name, MIME type, content)."""
    return NotificationLog.objects.create(
        channel=NotificationLog.Channel.EMAIL,
        recipient=to,
        template=f"email/{template}",
        subject=subject,
        body=render_to_string(f"notifications/email/{template}.txt", context),
        html_body=render_to_string(f"notifications/email/{template}.html", context),
        headers=headers or {},
        attachments=[
            {"filename": name, "mimetype": mimetype, "content": base64.b64encode(content).decode()}
            for name, mimetype, content in attachments or []
        ],
        pledge=pledge,
        payment=payment,
    )


def _provider_send(log: NotificationLog) -> str:
    """Hand one message to its provider: the provider's message id, or an exception."""
    network_call_check("The SMS gateway" if log.channel == NotificationLog.Channel.SMS else "The mail server")
    if log.channel == NotificationLog.Channel.SMS:
        return sms_send(to=log.recipient, message=log.body, link_id=log.link_id)
    message = EmailMultiAlternatives(subject=log.subject, body=log.body, to=[log.recipient], headers=log.headers)
    message.attach_alternative(log.html_body, "text/html")
    for attachment in log.attachments:
        message.attach(attachment["filename"], base64.b64decode(attachment["content"]), attachment["mimetype"])
    message.send()
    return ""


# once delivery is settled, so staff who read the log (Django admin) and backups never hold it.
KEYS_IN_MESSAGES = {
    "email/password_reset": re.compile(r"(?<=/reset-password)\?[^\s\"<]+"),
    "sms/phone_code": re.compile(r"\b\d{6}\b"),
    "email/invitation": re.compile(r"(?<=/invitation)\?[^\s\"<]+"),
    "sms/invitation": re.compile(r"(?<=/invitation)\?[^\s\"<]+"),
}


KEY_REMOVED = "?[removed]"


def _forget_key(log: NotificationLog) -> None:
    """Sent, given up on or limited: the log keeps the message, not a key to someone's account, nor
    its attachments' content (a statement of someone's giving)."""
    log.attachments = [{**attachment, "content": ""} for attachment in log.attachments]
    if key := KEYS_IN_MESSAGES.get(log.template):
        log.body, log.html_body = key.sub(KEY_REMOVED, log.body), key.sub(KEY_REMOVED, log.html_body)


def notification_deliver(*, log_id: int) -> NotificationLog:
    """Try to send a queued message once. On a provider error the error is recorded and, while
    attempts remain and the task backend can defer, a retry is enqueued after a back-off."""
    log = NotificationLog.objects.select_related("pledge").get(pk=log_id)
    if log.status != NotificationLog.Status.QUEUED:
        return log
    if log.attempts == 0 and not recipient_limits.unasked_message_allowed(log=log):
        log.status = NotificationLog.Status.LIMITED
        _forget_key(log)
        log.save(update_fields=["status", "body", "html_body", "attachments"])
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
    _forget_key(log)
    log.save(
        update_fields=[
            "attempts",
            "error",
            "status",
            "sent_at",
            "provider_message_id",
            "body",
            "html_body",
            "attachments",
        ]
    )
    return log


# An SMS's delivery report's ``status`` (Africa's Talking): final ones only; Sent, Submitted and
# Buffered are on the way, and the message stays sent.
DELIVERY_STATUSES = {
    "Success": NotificationLog.Status.DELIVERED,
    "Failed": NotificationLog.Status.UNDELIVERED,
    "Rejected": NotificationLog.Status.UNDELIVERED,
}


def sms_delivery_report_record(*, message_id: str, status: str, failure_reason: str) -> NotificationLog | None:
    """What the gateway's delivery report says of the SMS it gave ``message_id``: delivered, or not
    (and why). A report that is not final, or names no message of ours, changes nothing; a report
    repeated or late (delivered after a failure report) leaves the log as the final one left it."""
    outcome = DELIVERY_STATUSES.get(status)
    log = NotificationLog.objects.filter(channel=NotificationLog.Channel.SMS, provider_message_id=message_id).first()
    if log is None or outcome is None or not message_id:
        return log
    error = "" if outcome == NotificationLog.Status.DELIVERED else f"{status}: {failure_reason}"[:1000]
    changed = NotificationLog.objects.filter(pk=log.pk, status=NotificationLog.Status.SENT).update(
        status=outcome, error=error
    )
    if changed:
        log.refresh_from_db(fields=["status", "error"])
    return log


def deliver_all(logs: list[NotificationLog]) -> None:
    for log in logs:
        notification_deliver(log_id=log.pk)


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
