"""What the USSD menu keeps per phone number: the language a caller chose, and each gateway session
(so that every step, whichever instance it reaches, starts from the same language, and a retried
last step gets the answer already given instead of a second pledge or PIN prompt)."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Caller(models.Model):
    """A phone number that chose its language on the menu ('remembered for their number')."""

    phone = models.CharField(max_length=16, unique=True, help_text="E.164, as the mobile network gave it.")
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.phone}: {self.language}"


class Session(models.Model):
    """One gateway session (its ``sessionId``), kept a little longer than the gateway keeps it
    (``SESSION_KEPT``): the caller's language when it began, and the closing answer once given."""

    session_id = models.CharField(max_length=100, unique=True)
    phone = models.CharField(max_length=16, db_index=True, help_text="E.164, as the mobile network gave it.")
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    final_text = models.CharField(max_length=255, blank=True, help_text="The input that closed the session.")
    final_answer = models.TextField(blank=True, help_text="The END screen it was given (for retries).")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.session_id} ({self.phone})"
