"""The ushers' desk of an event: what each usher typed there, the passcodes of volunteers without
an account, and the count of the cash the ushers hand in against what they recorded.

Every entry carries the idempotency key its desk drew when it was typed (a desk offline keeps it and
sends it again until the server has it), unique here: a second delivery finds the first entry and
is answered with it, so a pledge card or envelope is never counted twice. Each entry names who typed
it, an usher's account or a passcode, never an address: the desk's figures and limits are per usher.
"""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common.money import format_ksh
from events.models import Event, EventState

# Passcodes are read aloud and typed on a phone: no 0/O, 1/I/L, and 8 characters (32^8, about 10^12,
# against guessing limited per address: DESK_PASSCODE_RATE).
PASSCODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
PASSCODE_LENGTH = 8


def passcode_normalize(code: str) -> str:
    """A passcode as typed (any case, spaces and dashes ignored) as it was issued."""
    return "".join(character for character in code.upper() if character.isalnum())


def passcode_draw() -> str:
    return "".join(secrets.choice(PASSCODE_ALPHABET) for _ in range(PASSCODE_LENGTH))


def passcode_hash(code: str) -> str:
    return hashlib.sha256(passcode_normalize(code).encode()).hexdigest()


class DeskPasscodeState(models.TextChoices):
    ACTIVE = "active", _("Active")
    EXPIRED = "expired", _("Expired: the event has closed")
    REVOKED = "revoked", _("Revoked")


class DeskPasscode(models.Model):
    """Lets one volunteer without an account add entries to one event, until its close or until an
    owner revokes it; nothing else. Only its hash is kept: the owner reads the code once, when issuing it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="desk_passcodes")
    volunteer = models.CharField(max_length=60, help_text="Who holds it: their entries are counted under this name.")
    code_hash = models.CharField(max_length=64, unique=True)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    issued_at = models.DateTimeField(default=timezone.now)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True, help_text="From then on it works nowhere.")

    def __str__(self) -> str:
        return f"{self.volunteer} at event {self.event_id}"

    @property
    def expired(self) -> bool:
        """It stops working when its event closes."""
        return self.event.state == EventState.CLOSED

    @property
    def state(self) -> DeskPasscodeState:
        if self.revoked_at is not None:
            return DeskPasscodeState.REVOKED
        return DeskPasscodeState.EXPIRED if self.expired else DeskPasscodeState.ACTIVE

    @property
    def works(self) -> bool:
        return self.state == DeskPasscodeState.ACTIVE


class DeskEntryKind(models.TextChoices):
    PLEDGE = "pledge", _("Pledge card")
    CASH = "cash", _("Cash gift")
    MPESA = "mpesa", _("M-Pesa gift")


class DeskEntry(models.Model):
    idempotency_key = models.CharField(max_length=64, unique=True, help_text="Drawn by the desk when typed.")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="desk_entries")
    kind = models.CharField(max_length=8, choices=DeskEntryKind.choices)
    amount = models.PositiveIntegerField(help_text="Whole KES.")
    usher = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="desk_entries"
    )
    passcode = models.ForeignKey(DeskPasscode, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    usher_name = models.CharField(max_length=150, help_text="Who typed it, as the night's report names them.")
    pledge = models.OneToOneField(
        "pledges.Pledge", null=True, blank=True, on_delete=models.PROTECT, related_name="desk_entry"
    )
    donation = models.ForeignKey(
        "pledges.Donation", null=True, blank=True, on_delete=models.PROTECT, related_name="desk_entries"
    )
    payment = models.ForeignKey(
        "payments.Payment", null=True, blank=True, on_delete=models.PROTECT, related_name="desk_entries"
    )
    already_in_books = models.BooleanField(
        default=False, help_text="Its M-Pesa receipt reached the books first: it credited nothing again."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "desk entries"
        indexes = [models.Index(fields=["event", "usher", "passcode"], name="desk_entry_per_usher_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=1), name="desk_entry_amount_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} KES {self.amount} by {self.usher_name}"

    def typed_by(self, *, usher_id: int | None, passcode_id: int | None) -> bool:
        return self.usher_id == usher_id and self.passcode_id == passcode_id


def usher_key_of(*, usher_id: int | None, passcode_id: int | None) -> str:
    """Who typed an entry, as the cash count names them: an usher's account or a volunteer's passcode
    (never both). 'unknown' for an entry whose account and passcode are both gone."""
    if usher_id is not None:
        return f"user-{usher_id}"
    return f"passcode-{passcode_id}" if passcode_id is not None else "unknown"


class CashReconciliation(models.Model):
    """The count of an event's cash against what its desk recorded, and the sign-off that closes it.

    Counts may be corrected until a treasurer or owner signs off. The sign-off freezes them, beside
    the figures the desk had recorded at that moment (``CashCount.signed_recorded_*``): cash a desk
    that was offline delivers later is shown next to the signed figures, never folded into them.
    Withdrawing the sign-off (with a reason) opens the counts again, and they need a new sign-off.
    Every count, sign-off and withdrawal is in the audit log."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="cash_reconciliation")
    signed_off_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    signed_off_at = models.DateTimeField(null=True, blank=True)
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reopened_at = models.DateTimeField(null=True, blank=True, help_text="When its last sign-off was withdrawn.")
    reopen_reason = models.CharField(max_length=300, blank=True)

    def __str__(self) -> str:
        return f"Cash of event {self.event_id}"

    @property
    def signed_off(self) -> bool:
        return self.signed_off_at is not None


class CashCount(models.Model):
    """The cash one usher handed in at an event, as counted by a treasurer or owner."""

    reconciliation = models.ForeignKey(CashReconciliation, on_delete=models.CASCADE, related_name="counts")
    usher_key = models.CharField(max_length=24, help_text="'user-<id>' or 'passcode-<id>': see usher_key_of.")
    usher_name = models.CharField(max_length=150)
    counted = models.PositiveIntegerField(help_text="Whole KES.")
    note = models.CharField(max_length=300, blank=True)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    counted_at = models.DateTimeField(default=timezone.now)
    signed_recorded_count = models.PositiveIntegerField(
        null=True, blank=True, help_text="The usher's cash entries when the count was signed off."
    )
    signed_recorded_total = models.PositiveIntegerField(
        null=True, blank=True, help_text="Their sum when the count was signed off (whole KES)."
    )

    class Meta:
        ordering = ["usher_name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["reconciliation", "usher_key"], name="desk_cash_count_one_per_usher"),
        ]

    def __str__(self) -> str:
        return f"{format_ksh(self.counted)} counted for {self.usher_name}"
