from datetime import timedelta

from django.utils import timezone

from campaigns.models import Campaign
from events.models import Event


def open_event(campaign: Campaign, *, title: str = "Harambee Sunday", opened_minutes_ago: int = 0) -> Event:
    """An event of ``campaign`` opened ``opened_minutes_ago`` minutes ago."""
    now = timezone.now()
    return Event.objects.create(
        campaign=campaign,
        title=title,
        starts_at=now - timedelta(hours=1),
        ends_at=now + timedelta(hours=3),
        opened_at=now - timedelta(minutes=opened_minutes_ago),
    )
