"""Pledges (promises to pay, matched to M-Pesa payments by their code) and donations (paid at once).

Money is whole KES. Only ``pledges.services`` writes these rows and the campaign counters they
feed (``pledged_total``, ``raised_total``, ``donor_count``), in the transaction that records the
pledge or credits the payment.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pledges.codes import CODE_LENGTH, new_code

# Pledges and donations anonymised by an account deletion keep this as their name, a marker that
# is shown through the translation layer (``shown_giver_name``), never as stored.
DELETED_USER_NAME = "Deleted user"


def shown_giver_name(name: str) -> str:
    """A pledge's or donation's name as organizers see it: 'Deleted user' in their language."""
    return str(_("Deleted user")) if name == DELETED_USER_NAME else name


class PledgeStatus(models.TextChoices):
    """Pending: nothing paid yet. Partly paid: some of it. Confirmed: fully paid (or more), by
    M-Pesa, by payments the organizer recorded, or confirmed by the organizer (one way)."""

    PENDING = "pending", _("Pending")
    PARTLY_PAID = "partly_paid", _("Partly paid")
    CONFIRMED = "confirmed", _("Confirmed")


class PledgeQuerySet(models.QuerySet["Pledge"]):
    def newest_first(self) -> "PledgeQuerySet":
        """With who confirmed each one, for the tables of Pledge Management."""
        return self.select_related("confirmed_by").order_by("-created_at", "-id")


class Pledge(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.PROTECT, related_name="pledges")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="pledges_made",
        # A user's own pledges (data download, account deletion) are these, never those found by
        # e-mail address: nobody verified it. (A donation's is its payment's user.)
        help_text="The account signed in when pledging, if any.",
    )
    name = models.CharField(max_length=150)
    email = models.EmailField()
    phone = models.CharField(max_length=16, help_text="E.164, e.g. +254712345678")
    amount = models.PositiveIntegerField(help_text="Whole KES, at least 1.")
    is_anonymous = models.BooleanField(default=False)
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text="The language they pledged in: their e-mails and SMS are in it.",
    )
    code = models.CharField(
        max_length=CODE_LENGTH,
        unique=True,
        default=new_code,
        editable=False,
        help_text="The M-Pesa account number that matches a paybill payment to this pledge.",
    )
    status = models.CharField(max_length=16, choices=PledgeStatus.choices, default=PledgeStatus.PENDING)
    paid_amount = models.PositiveBigIntegerField(default=0, help_text="Sum of the payments matched to it, whole KES.")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who confirmed it or recorded its last payment; empty when M-Pesa payments paid it.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = PledgeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gte=1), name="pledges_pledge_amount_gte_1")]
        indexes = [
            models.Index(fields=["campaign", "-created_at", "-id"], name="pledges_campaign_recent_idx"),
            models.Index(fields=["campaign", "status"], name="pledges_campaign_status_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.code}: KES {self.amount} to campaign {self.campaign_id}"

    @property
    def is_confirmed(self) -> bool:
        return self.status == PledgeStatus.CONFIRMED

    @property
    def remaining_amount(self) -> int:
        return max(self.amount - self.paid_amount, 0)

    @property
    def overpaid_amount(self) -> int:
        return max(self.paid_amount - self.amount, 0)

    def status_after_payment(self) -> str:
        """The status ``paid_amount`` now calls for; confirmation is never taken back."""
        if self.is_confirmed or self.paid_amount >= self.amount:
            return PledgeStatus.CONFIRMED
        return PledgeStatus.PARTLY_PAID if self.paid_amount else PledgeStatus.PENDING


class PledgePayment(models.Model):
    """A succeeded payment counted towards a pledge; at most one pledge per payment."""

    pledge = models.ForeignKey(Pledge, on_delete=models.PROTECT, related_name="payment_links")
    payment = models.OneToOneField("payments.Payment", on_delete=models.PROTECT, related_name="pledge_link")
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The organizer who assigned an unmatched payment; empty when the code matched it.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.payment_id} -> pledge {self.pledge_id}"


class DonationQuerySet(models.QuerySet["Donation"]):
    def paid(self) -> "DonationQuerySet":
        """Donations whose payment succeeded, the latest first, with their payment."""
        return self.filter(counted_at__isnull=False).select_related("payment").order_by("-counted_at", "-id")


class Donation(models.Model):
    """A gift paid at once by M-Pesa or card. Its state is its payment's; it counts towards the
    campaign's raised total and donors once that payment succeeds (``counted_at``)."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.PROTECT, related_name="donations")
    payment = models.OneToOneField("payments.Payment", on_delete=models.PROTECT, related_name="donation")
    amount = models.PositiveIntegerField(help_text="Whole KES, at least 1.")
    name = models.CharField(max_length=150, blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=16, blank=True, help_text="E.164, e.g. +254712345678")
    is_anonymous = models.BooleanField(default=False)
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text="The language they gave in: their receipt is in it.",
    )
    counted_at = models.DateTimeField(null=True, blank=True, help_text="When its payment succeeded and was counted.")
    created_at = models.DateTimeField(default=timezone.now)

    objects = DonationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gte=1), name="pledges_donation_amount_gte_1")]
        indexes = [
            models.Index(
                fields=["campaign", "-counted_at", "-id"],
                condition=Q(counted_at__isnull=False),
                name="pledges_donation_recent_idx",
            )
        ]

    def __str__(self) -> str:
        return f"KES {self.amount} to campaign {self.campaign_id} ({self.status})"

    @property
    def status(self) -> str:
        return self.payment.status
