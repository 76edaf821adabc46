"""The demo event: the ministry campaign's harambee service on the coming Sunday, announced and not
yet opened (open it on /campaign/{id}/events to try the big screen). Loading again adds nothing."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from campaigns.models import Campaign
from events.models import Event

DEMO_EVENT_TITLE = "Harambee Sunday Service"
NAIROBI = ZoneInfo("Africa/Nairobi")


def demo_events_load(*, campaign: Campaign) -> Event:
    """The demo event of ``campaign``, made if missing: 10:00 to 13:00 Nairobi time on the coming Sunday."""
    today = timezone.now().astimezone(NAIROBI).date()
    sunday = today + timedelta(days=(6 - today.weekday()) % 7 or 7)
    starts_at = datetime.combine(sunday, time(10), tzinfo=NAIROBI)
    event, _ = Event.objects.get_or_create(
        campaign=campaign,
        title=DEMO_EVENT_TITLE,
        defaults={"starts_at": starts_at, "ends_at": starts_at + timedelta(hours=3), "created_by": campaign.organizer},
    )
    return event
