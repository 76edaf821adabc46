"""Every text that reached the shortcode (Africa's Talking's inbound SMS callback), kept as it came:
the provider's message ``id`` is unique, so a retried delivery is recognised and nothing is done
twice; what was done about it (``outcome``) and the reply sent are recorded with it."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class InboundSms(models.Model):
    class Outcome(models.TextChoices):
        PLEDGED = "pledged", "Pledge recorded"
        PROMPTED = "prompted", "PIN prompt queued"
        INSTRUCTED = "instructed", "Told how to pay"
        BALANCE = "balance", "Pledges and balances sent"
        STOPPED = "stopped", "Reminders stopped"
        HELP = "help", "Help sent"
        REFUSED = "refused", "Refused, with the reason sent"
        LIMITED = "limited", "Over the sender's limit: no reply"
        NOT_KENYAN = "not_kenyan", "Not a Kenyan number: no reply"

    message_id = models.CharField(max_length=100, unique=True, help_text="Africa's Talking's ``id``.")
    sender = models.CharField(max_length=20, db_index=True, help_text="``from``: E.164, as the mobile network gave it.")
    shortcode = models.CharField(max_length=20, blank=True, help_text="``to``: the shortcode or number texted.")
    text = models.TextField()
    link_id = models.CharField(max_length=100, blank=True, help_text="``linkId``: premium shortcodes only.")
    network_code = models.CharField(max_length=10, blank=True)
    sent_at = models.CharField(max_length=40, blank=True, help_text="``date``, as the gateway wrote it.")
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    pledge = models.ForeignKey(
        "pledges.Pledge", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="Made or paid."
    )
    reply = models.ForeignKey(
        "notifications.NotificationLog", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deliveries = models.PositiveIntegerField(default=1, help_text="How often the gateway delivered it.")
    received_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        verbose_name = "inbound SMS"
        verbose_name_plural = "inbound SMS"

    def __str__(self) -> str:
        return f"{self.message_id} from {self.sender}"
