"""The organizer's summary of an event (a harambee night): while an event of a campaign is open its
organizer gets no e-mail per pledge (``messages.organizer_new_pledge_notify`` leaves out a pledge made
during one), and at its close one e-mail lists the night's pledges and gifts with their totals.

An organizer who chose the daily digest hears of pledges only in it, events or not: there is nothing
to fold, so no summary either (and no pledge in two e-mails)."""

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.money import format_ksh
from events.models import Event
from events.selectors import event_entries
from notifications.messages import campaign_manage_url, wants_digest
from notifications.outbox import deliver_all, notification_queue_email
from pledges.models import shown_giver_name


def event_summary_send(*, event_id: int) -> None:
    """E-mail the campaign's organizer, in their language, the pledges made and gifts paid while the
    event was open: each with its amount (a pledge with its code), and the totals."""
    event = Event.objects.select_related("campaign__organizer", "campaign__reminder_settings").get(pk=event_id)
    campaign = event.campaign
    if event.closed_at is None or wants_digest(campaign):
        return
    pledges, gifts = event_entries(event=event)
    with translation.override(campaign.organizer.message_language):
        pledged, given = sum(pledge.amount for pledge in pledges), sum(gift.amount for gift in gifts)
        subject = ngettext(
            "%(event)s: %(count)d pledge, %(total)s", "%(event)s: %(count)d pledges, %(total)s", len(pledges)
        ) % {"event": event.title, "count": len(pledges), "total": format_ksh(pledged)}
        context = {
            "event": event,
            "campaign": campaign,
            "pledges": [
                {
                    "name": shown_giver_name(pledge.name, pledge.phone),
                    "code": pledge.code,
                    "amount": format_ksh(pledge.amount),
                }
                for pledge in pledges
            ],
            "gifts": [
                {"name": shown_giver_name(gift.name) or _("Anonymous"), "amount": format_ksh(gift.amount)}
                for gift in gifts
            ],
            "pledged_total": format_ksh(pledged),
            "given_total": format_ksh(given),
            "manage_url": campaign_manage_url(campaign),
            "site_url": settings.SITE_URL,
        }
        deliver_all(
            [
                notification_queue_email(
                    to=campaign.organizer.email, subject=subject, template="event_summary", context=context
                )
            ]
        )
