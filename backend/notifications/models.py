"""What was sent to whom, which reminders a pledge has had, and who asked for none."""

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# Reminder offsets: ``pledge+N`` is N days after pledging, ``end-N`` N days before the
# campaign's end date (``end-0`` on the end date itself).
DEFAULT_REMINDER_OFFSETS = ["pledge+7", "end-3", "end-0"]
# The offsets an organizer may choose from, in the order they fall for a typical pledge.
REMINDER_OFFSET_CHOICES = (
    "pledge+1",
    "pledge+3",
    "pledge+7",
    "pledge+14",
    "pledge+30",
    "end-7",
    "end-3",
    "end-1",
    "end-0",
)


def default_offsets() -> list[str]:
    return list(DEFAULT_REMINDER_OFFSETS)


def known_offsets(offsets: Iterable[str]) -> list[str]:
    """Those of ``offsets`` among ``REMINDER_OFFSET_CHOICES``, once each and in their order."""
    chosen = set(offsets)
    return [offset for offset in REMINDER_OFFSET_CHOICES if offset in chosen]


class NotificationLog(models.Model):
    """One message on one channel: queued until the provider takes it (sent) or retries run out (failed);
    an SMS then delivered or not, as the gateway's delivery report says."""

    class Channel(models.TextChoices):
        EMAIL = "email", _("E-mail")
        SMS = "sms", _("SMS")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")
        # Not sent: the recipient had had their share of messages they did not ask for (recipient_limits.py).
        LIMITED = "limited", _("Not sent: recipient's limit")
        # An SMS's delivery report (``sms_delivery_report_record``): on the phone, or given up on by the network.
        DELIVERED = "delivered", _("Delivered")
        UNDELIVERED = "undelivered", _("Not delivered")

    channel = models.CharField(max_length=8, choices=Channel.choices)
    recipient = models.CharField(max_length=254, help_text="An e-mail address or an E.164 phone number.")
    template = models.CharField(max_length=100)
    subject = models.CharField(max_length=200, blank=True)
    body = models.TextField()
    html_body = models.TextField(blank=True)
    # E-mail headers beyond the usual ones, e.g. a reminder's List-Unsubscribe (RFC 8058).
    headers = models.JSONField(default=dict, blank=True)
    # An e-mail's attached files, [{"filename", "mimetype", "content": base64}] (a yearly statement's
    # PDF); their content is dropped once delivery is settled, their names kept.
    attachments = models.JSONField(default=list, blank=True)
    pledge = models.ForeignKey(
        "pledges.Pledge", null=True, blank=True, on_delete=models.SET_NULL, related_name="notifications"
    )
    payment = models.ForeignKey(
        "payments.Payment", null=True, blank=True, on_delete=models.SET_NULL, related_name="notifications"
    )
    # An SMS receipt's payments: all those it told of, one receipt for a statement's or a Pull's
    # several payments towards one pledge (``messages.pledge_payments_notify``).
    receipted_payments = models.ManyToManyField("payments.Payment", blank=True, related_name="sms_receipts")
    provider_message_id = models.CharField(max_length=100, blank=True)
    # A reply to a text on a premium or on-demand shortcode: the gateway's id of that text, sent back
    # with the reply (``notifications.sms``).
    link_id = models.CharField(max_length=100, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["pledge", "-created_at"], name="notifications_log_pledge_idx"),
            # A delivery report names the message by the gateway's id.
            models.Index(
                fields=["provider_message_id"],
                condition=~models.Q(provider_message_id=""),
                name="notifications_log_provider_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.channel} {self.template} to {self.recipient} ({self.status})"


class CampaignReminderSettings(models.Model):
    """The organizer's reminder choices for a campaign; a campaign without a row uses the defaults."""

    campaign = models.OneToOneField(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="reminder_settings", primary_key=True
    )
    enabled = models.BooleanField(default=True)
    offsets = models.JSONField(
        default=default_offsets,
        blank=True,  # none while reminders are off; checked in clean()
        help_text=f'e.g. ["pledge+7", "end-3", "end-0"]; each one of {", ".join(REMINDER_OFFSET_CHOICES)}',
    )
    # Off: the organizer gets an e-mail for every new pledge; on: one e-mail a day listing them.
    new_pledge_digest = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "campaign reminder settings"

    def __str__(self) -> str:
        return f"Reminders for campaign {self.campaign_id}"

    def clean(self) -> None:
        """For whoever saves the settings, the API or the admin: offsets among the choices only (the
        scheduler and the organizer's form know no others), and at least one while reminders are on."""
        offsets = self.offsets
        if not isinstance(offsets, list) or not all(isinstance(offset, str) for offset in offsets):
            raise ValidationError({"offsets": _("Enter a list of reminder times.")})
        if unknown := set(offsets) - set(REMINDER_OFFSET_CHOICES):
            raise ValidationError({"offsets": _("Unknown reminder time: %(offset)s") % {"offset": sorted(unknown)[0]}})
        if self.enabled and not offsets:
            raise ValidationError({"offsets": _("Choose at least one reminder time, or turn reminders off.")})


class Reminder(models.Model):
    """One automatic reminder of a pledge at one offset. The unique pair is the idempotency key:
    however many schedulers run, a pledge gets each offset's reminder at most once."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Skipped")

    pledge = models.ForeignKey("pledges.Pledge", on_delete=models.CASCADE, related_name="reminders")
    offset = models.CharField(max_length=16)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["pledge", "offset"], name="notifications_reminder_once_per_offset")
        ]

    def __str__(self) -> str:
        return f"Reminder {self.offset} of pledge {self.pledge_id} ({self.status})"


class PledgeDigest(models.Model):
    """One day's e-mail to a campaign's organizer listing the pledges made from ``covers_from`` to
    ``covers_until``. The unique pair is the scheduler's idempotency key: at most one scheduled
    digest a campaign a day. A final one, sent when the organizer turns the digest off, comes on top."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="pledge_digests")
    day = models.DateField(help_text="The Nairobi date it is sent on.")
    covers_from = models.DateTimeField()
    covers_until = models.DateTimeField()
    final = models.BooleanField(default=False, help_text="Sent when the organizer turned the digest off.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-day", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "day"], condition=models.Q(final=False), name="notifications_digest_once_a_day"
            )
        ]

    def __str__(self) -> str:
        return f"Pledge digest of campaign {self.campaign_id} on {self.day}"


class PledgeOptOut(models.Model):
    """The pledger asked (through the signed link in a reminder) for no more reminders."""

    pledge = models.OneToOneField("pledges.Pledge", on_delete=models.CASCADE, related_name="opt_out", primary_key=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Opt-out of pledge {self.pledge_id}"


class EventThanks(models.Model):
    """The thank-you message of an event to one of its givers (a phone number, or an e-mail address
    where they gave none). The unique pair is the idempotency key: sending the event's thanks again
    reaches only those not thanked yet, so nobody gets it twice."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="thanks")
    recipient = models.CharField(max_length=254, help_text="An E.164 phone number or an e-mail address.")
    channel = models.CharField(max_length=8, choices=NotificationLog.Channel.choices)
    language = models.CharField(max_length=8, help_text="The language they gave in: the e-mail's subject is in it.")
    text = models.TextField(help_text="As its organizer wrote it.")
    sent_by = models.ForeignKey("accounts.User", null=True, on_delete=models.SET_NULL, related_name="+")
    log = models.OneToOneField(
        NotificationLog, null=True, blank=True, on_delete=models.SET_NULL, related_name="event_thanks"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "event thanks"
        constraints = [models.UniqueConstraint(fields=["event", "recipient"], name="notifications_event_thanks_once")]

    def __str__(self) -> str:
        return f"Thanks of event {self.event_id} by {self.channel}"
