"""A campaign's events (a harambee service, a fundraising dinner) and the entries hidden from its live feed.

"During the event" means between its opening and its closing, not its announced start and end: the
MC opens it when the pledging starts, whatever the printed programme said.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class EventState(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class Event(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="events")
    title = models.CharField(max_length=120)
    starts_at = models.DateTimeField(help_text="When it is announced to start.")
    ends_at = models.DateTimeField(help_text="When it is announced to end.")
    opened_at = models.DateTimeField(null=True, blank=True, help_text="When its owner opened it: the feed starts.")
    closed_at = models.DateTimeField(null=True, blank=True, help_text="When its owner closed it: the feed stops.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="events_event_ends_after_start"),
            # The big screen shows one event's feed: a campaign runs one at a time.
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(opened_at__isnull=False, closed_at__isnull=True),
                name="events_one_open_event_per_campaign",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} (campaign {self.campaign_id})"

    @property
    def state(self) -> EventState:
        if self.closed_at is not None:
            return EventState.CLOSED
        return EventState.OPEN if self.opened_at is not None else EventState.SCHEDULED


class HiddenEntry(models.Model):
    """A pledge or gift taken off the live feed by its campaign's team (a joke name, a mistake).
    Only the feed leaves it out: the books, totals and Pledge Management still count it."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="hidden_entries")
    pledge = models.OneToOneField(
        "pledges.Pledge", null=True, blank=True, on_delete=models.CASCADE, related_name="hidden_entry"
    )
    donation = models.OneToOneField(
        "pledges.Donation", null=True, blank=True, on_delete=models.CASCADE, related_name="hidden_entry"
    )
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    hidden_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(pledge__isnull=False, donation__isnull=True)
                | Q(pledge__isnull=True, donation__isnull=False),
                name="events_hidden_entry_one_kind",
            )
        ]

    def __str__(self) -> str:
        return f"pledge {self.pledge_id}" if self.pledge_id else f"donation {self.donation_id}"
