"""How the money was used: what a church paid, from its own accounts, out of a campaign's money.

Harambee never holds money: a ``SpendingRecord`` records a payment the church made itself (to a
builder, a hospital, a transporter), with its receipt. A treasurer or owner records it; a second
owner or treasurer approves it (the two-person rule) before it counts. The books are append-only:
a mistake is corrected by a reversing entry, a new row pointing at the original (``reverses``);
only an approved line without a reversal counts (``SpendingQuerySet.counted``). Each write is audited.
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SpendingCategory(models.TextChoices):
    MATERIALS = "materials", _("Materials")
    LABOUR = "labour", _("Labour")
    TRANSPORT = "transport", _("Transport")
    FEES = "fees", _("Fees and charges")
    BENEFICIARY_BILL = "beneficiary_bill", _("A beneficiary's bill")
    OTHER = "other", _("Other")


class PayeeKind(models.TextChoices):
    ORGANIZATION = "organization", _("An organization or business")
    PERSON = "person", _("A private person")


class SpendingStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for a second person's approval")
    APPROVED = "approved", _("Approved")


class ReceiptType(models.TextChoices):
    NONE = "", _("None")
    IMAGE = "image", _("Photo")
    PDF = "pdf", _("PDF")


class SpendingQuerySet(models.QuerySet["SpendingRecord"]):
    def originals(self) -> "SpendingQuerySet":
        """Spending lines, not the reversing entries that cancel them."""
        return self.filter(reverses__isnull=True)

    def counted(self) -> "SpendingQuerySet":
        """What counts as spent: approved lines that no reversing entry cancels."""
        return self.originals().filter(status=SpendingStatus.APPROVED, reversal__isnull=True)


class SpendingRecord(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.PROTECT, related_name="spending")
    spent_on = models.DateField(help_text="When the church paid it.")
    payee = models.CharField(max_length=150)
    payee_kind = models.CharField(max_length=16, choices=PayeeKind.choices)
    category = models.CharField(max_length=20, choices=SpendingCategory.choices)
    amount = models.PositiveIntegerField(help_text="Whole KES.")
    collection_account = models.ForeignKey(
        "collection_accounts.CollectionAccount",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The organization's account it was paid from (empty: not said).",
    )
    receipt_name = models.CharField(max_length=200, blank=True, help_text="The receipt's name in the storage.")
    receipt_type = models.CharField(max_length=8, choices=ReceiptType.choices, blank=True, default="")
    publish_receipt = models.BooleanField(default=False, help_text="Whether visitors may see the receipt.")
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=SpendingStatus.choices, default=SpendingStatus.PENDING)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversal",
        help_text="The line this entry reverses (a correction); empty for a spending line.",
    )

    objects = SpendingQuerySet.as_manager()

    class Meta:
        ordering = ["-spent_on", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=1), name="spending_amount_gte_1"),
            # The two-person rule: whoever recorded a line never approves it.
            models.CheckConstraint(
                condition=Q(approved_by__isnull=True) | ~Q(approved_by=models.F("recorded_by")),
                name="spending_approver_is_not_recorder",
            ),
        ]
        indexes = [models.Index(fields=["campaign", "spent_on"], name="spending_campaign_day_idx")]

    def __str__(self) -> str:
        kind = "Reversal of " if self.reverses_id else ""
        return f"{kind}Ksh {self.amount:,} to {self.payee} ({self.spent_on})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Append-only: once written, only the approval may be set (``spending_approve``).
        if self.pk is not None and set(kwargs.get("update_fields") or ()) - {"status", "approved_by", "approved_at"}:
            raise ValueError("Spending lines are never changed: reverse one instead.")
        if self.pk is not None and not kwargs.get("update_fields"):
            raise ValueError("Spending lines are never changed: reverse one instead.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("Spending lines are never deleted: reverse one instead.")

    @property
    def counts(self) -> bool:
        return self.reverses_id is None and self.status == SpendingStatus.APPROVED and not hasattr(self, "reversal")

    def public_payee(self) -> str:
        """The payee as a visitor sees it: a private person's name masked to initials ('J. K.')."""
        if self.payee_kind == PayeeKind.ORGANIZATION:
            return self.payee
        return mask_person(self.payee)


def mask_person(name: str) -> str:
    """'John Kamau' → 'J. K.': enough for the congregation to recognise, nothing for a stranger."""
    initials = [part[0].upper() + "." for part in name.split() if part[:1].isalpha()]
    return " ".join(initials) or "—"


class ProgressUpdate(models.Model):
    """News the team posts to the campaign page: what the money has done so far, with photos."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.PROTECT, related_name="progress_updates")
    text = models.TextField(max_length=2000)
    photo_urls = models.JSONField(default=list, blank=True, help_text="Pictures uploaded through /api/media.")
    posted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    posted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-posted_at", "-id"]

    def __str__(self) -> str:
        return f"Update on campaign {self.campaign_id} ({self.posted_at:%Y-%m-%d})"
