"""An event's thank-you message: after its close, one text its organizer wrote, to everyone who
pledged or gave during it (who they are is the desk's night's report: ``desk.services``).

Each giver is thanked once, by SMS to their number, or by e-mail where they gave none (a card
gift); a giver with neither is left out. The text goes as written (the e-mail's subject is in the
giver's language). A number or address whose pledge opted out of reminders (the link in one, or
STOP) is left out too; the others are unasked messages, within each recipient's limits
(``recipient_limits``), and none goes out at night: they wait for the morning as reminders do.
"""

from dataclasses import dataclass
from functools import partial

from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from events.models import Event
from notifications import tasks
from notifications.models import EventThanks, NotificationLog, PledgeOptOut
from notifications.outbox import (
    deliver_all,
    is_quiet_hours,
    notification_queue_email,
    notification_queue_sms,
    quiet_hours_end,
)


@dataclass(frozen=True)
class ThanksRecipient:
    contact: str  # an E.164 number, or an e-mail address where the giver gave no number
    channel: NotificationLog.Channel
    language: str


@dataclass(frozen=True)
class ThanksQueued:
    queued: int
    already_thanked: int
    opted_out: int


def _opted_out(recipients: list[ThanksRecipient]) -> set[str]:
    """Those of ``recipients`` with a pledge (any campaign) that asked for no more reminders. One query."""
    phones = [r.contact for r in recipients if r.channel == NotificationLog.Channel.SMS]
    emails = [r.contact.lower() for r in recipients if r.channel == NotificationLog.Channel.EMAIL]
    rows = (
        PledgeOptOut.objects.annotate(email_lower=Lower("pledge__email"))
        .filter(Q(pledge__phone__in=phones) | Q(email_lower__in=emails))
        .values_list("pledge__phone", "email_lower")
    )
    out: set[str] = set()
    for phone, email in rows:
        out.update({phone, email})
    return {r.contact for r in recipients if r.contact in out or r.contact.lower() in out}


def event_thanks_queue(*, event: Event, user: User, text: str, recipients: list[ThanksRecipient]) -> ThanksQueued:
    """Thank each of ``recipients`` (one each) for ``event`` with ``text``, unless they were already
    thanked or opted out; sent in the background on commit. Audited. Two clicks at once queue once:
    the event is locked while the rows are written."""
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        thanked = set(EventThanks.objects.filter(event=event).values_list("recipient", flat=True))
        opted_out = _opted_out([r for r in recipients if r.contact not in thanked])
        new = [r for r in recipients if r.contact not in thanked and r.contact not in opted_out]
        EventThanks.objects.bulk_create(
            EventThanks(
                event=event, recipient=r.contact, channel=r.channel, language=r.language, text=text, sent_by=user
            )
            for r in new
        )
        audit_record(
            actor=user,
            action=AuditAction.EVENT_THANKS_SENT,
            target=event,
            after={"text": text, "queued": len(new), "opted_out": len(opted_out)},
        )
        if new:
            transaction.on_commit(partial(tasks.send_event_thanks.enqueue, event_id=event.pk))
    return ThanksQueued(
        queued=len(new), already_thanked=len(recipients) - len(new) - len(opted_out), opted_out=len(opted_out)
    )


def event_thanks_deliver(*, event_id: int) -> int:
    """Send the event's thanks not sent yet (each once: claimed under a lock before it is handed
    over); in quiet hours put off until they end, where the task backend can defer. How many sent."""
    now = timezone.now()
    if is_quiet_hours(now) and tasks.send_event_thanks.get_backend().supports_defer:
        tasks.send_event_thanks.using(run_after=quiet_hours_end(now)).enqueue(event_id=event_id)
        return 0
    event = Event.objects.select_related("campaign__organization").get(pk=event_id)
    with transaction.atomic():
        waiting = list(EventThanks.objects.select_for_update().filter(event=event, log__isnull=True).order_by("pk"))
        for thanks in waiting:
            thanks.log = _thanks_log(thanks, event)
        EventThanks.objects.bulk_update(waiting, ["log"])
    deliver_all([thanks.log for thanks in waiting if thanks.log is not None])
    return len(waiting)


def _thanks_log(thanks: EventThanks, event: Event) -> NotificationLog:
    context = {"text": thanks.text}
    if thanks.channel == NotificationLog.Channel.SMS:
        return notification_queue_sms(to=thanks.recipient, template="event_thanks", context=context)
    with translation.override(thanks.language):
        # Never a person's name: a personal organization's campaign thanks by its own title.
        thanker = event.campaign.organization.payee_name or event.campaign.title
        subject = _("Thank you from %(organization)s") % {"organization": thanker}
        return notification_queue_email(to=thanks.recipient, subject=subject, template="event_thanks", context=context)
