"""Pledges (promises to pay, matched to M-Pesa payments by their code) and donations (paid at once).

Money is whole KES. Only ``pledges.services`` writes these rows and the campaign counters they
feed (``pledged_total``, ``raised_total``, ``donor_count``), in the transaction that records the
pledge or credits the payment.
"""

from dataclasses import astuple, dataclass
from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Case, CharField, Count, Q, Sum, Value, When
from django.db.models.functions import Cast, Coalesce, Concat, Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pledges import instalments
from pledges.codes import CODE_LENGTH, new_code

# Pledges and donations anonymised by an account deletion keep this as their name, a marker that
# is shown through the translation layer (``shown_giver_name``), never as stored.
DELETED_USER_NAME = "Deleted user"


def _person(*, user: str) -> Case:
    """Who gave a pledge's or a donation's money, as one text per person, for the figures "donors" and
    "payers" (counted distinct). A person is known by their phone number (stored as +2547..., however it
    was typed), else by their e-mail address (in any case), else by the account that gave; an anonymous
    gift counts by the same contact (anonymity hides the name, not who it is), and a gift with none of
    them (cash at the desk from someone who left no number) is a person of its own. ``user``: the field
    naming the row's account."""
    return Case(
        When(~Q(phone=""), then=Concat(Value("phone:"), "phone")),
        When(~Q(email=""), then=Concat(Value("email:"), Lower("email"))),
        When(Q(**{f"{user}__isnull": False}), then=Concat(Value("account:"), Cast(user, CharField()))),
        default=Concat(Value("gift:"), Cast("pk", CharField())),
        output_field=CharField(),
    )


def shown_giver_name(name: str, phone: str = "") -> str:
    """A pledge's or donation's name as organizers see it: 'Deleted user' in their language, and
    for a pledge made by phone without a name (USSD), 'Caller •••345' with the last digits of its
    ``phone``."""
    if name == DELETED_USER_NAME:
        return str(_("Deleted user"))
    if not name and phone:
        return str(_("Caller •••%(last)s") % {"last": phone[-3:]})
    return name


class PledgeStatus(models.TextChoices):
    """Derived from the amount and the payments counted towards it (``Pledge.derived_status``):
    pending, nothing paid; partly paid, some of it; confirmed, paid in full (or more), by M-Pesa or
    by payments the organizer recorded or confirmed. Reversing a payment or raising the amount can
    take a confirmed pledge back to partly paid."""

    PENDING = "pending", _("Pending")
    PARTLY_PAID = "partly_paid", _("Partly paid")
    CONFIRMED = "confirmed", _("Confirmed")


@dataclass(frozen=True)
class CampaignFigures:
    """A pledge's or donation's share of its campaign's counters (``Campaign.pledged_total``,
    ``pledged_signed_in_or_paid_total``, ``raised_total``, ``donor_count``). A write takes the share
    before and after and adds the difference, so every change of amount, payment or state moves
    the counters by exactly what it changed."""

    pledged: int = 0
    pledged_signed_in_or_paid: int = 0
    raised: int = 0
    donors: int = 0

    def __add__(self, other: "CampaignFigures") -> "CampaignFigures":
        return CampaignFigures(*(mine + theirs for mine, theirs in zip(astuple(self), astuple(other), strict=True)))

    def __sub__(self, other: "CampaignFigures") -> "CampaignFigures":
        return CampaignFigures(*(mine - theirs for mine, theirs in zip(astuple(self), astuple(other), strict=True)))


class PledgeChannel(models.TextChoices):
    """Where a pledge was made, set once by the service that records it: the campaign page, the
    USSD menu, a PLEDGE text to the shortcode, or a pledge card typed at an event's desk."""

    WEB = "web", _("Online")
    USSD = "ussd", _("USSD")
    SMS = "sms", _("SMS")
    DESK = "desk", _("Event desk")


class PledgeQuerySet(models.QuerySet["Pledge"]):
    def live(self) -> "PledgeQuerySet":
        """Not cancelled: counted in the totals, the summary and the reminders."""
        return self.filter(cancelled_at__isnull=True)

    def paid_and_payers(self) -> tuple[int, int]:
        """What was paid towards these pledges (whole KES, live ones only) and by how many payers: the
        distinct people (see ``_person``) who paid something; paying twice, or towards two pledges, is
        one payer. One query."""
        figures = self.live().aggregate(
            paid=Coalesce(Sum("paid_amount"), 0),
            payers=Count(_person(user="user"), distinct=True, filter=Q(paid_amount__gt=0)),
        )
        return figures["paid"], figures["payers"]

    def newest_first(self) -> "PledgeQuerySet":
        """With who confirmed each one and its plan, for the tables of Pledge Management."""
        return self.select_related("confirmed_by", "instalment_plan__standing_order").order_by("-created_at", "-id")


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
    # Blank only for pledges made by phone (USSD, ``phone_verified``): the web form requires both.
    name = models.CharField(max_length=150, blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=16, help_text="E.164, e.g. +254712345678")
    phone_verified = models.BooleanField(
        default=False,
        help_text="The phone number was given by the mobile network (a pledge made by USSD), not typed by someone.",
    )
    channel = models.CharField(max_length=8, choices=PledgeChannel.choices)
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
    cancelled_at = models.DateTimeField(
        null=True, blank=True, help_text="When an organizer cancelled it; empty while it is live."
    )
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancel_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = PledgeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gte=1), name="pledges_pledge_amount_gte_1")]
        indexes = [
            models.Index(fields=["campaign", "-created_at", "-id"], name="pledges_campaign_recent_idx"),
            models.Index(fields=["campaign", "status"], name="pledges_campaign_status_idx"),
            # A caller's own pledges, found by the number the network gives (USSD "My pledges").
            models.Index(fields=["phone", "-created_at"], name="pledges_phone_recent_idx"),
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

    @property
    def is_live(self) -> bool:
        return self.cancelled_at is None

    @property
    def plan(self) -> "InstalmentPlan | None":
        """Its instalment plan, if it has one."""
        try:
            return self.instalment_plan
        except InstalmentPlan.DoesNotExist:
            return None

    def amount_due(self, today: date | None = None) -> int:
        """What its pledger is offered to pay on ``today`` (Nairobi's, by default): on a plan, the
        instalment due or what is overdue (``instalments.amount_due``); without one, all that is
        left. They may pay any other amount up to ``remaining_amount``."""
        plan = self.plan
        if plan is None or not self.remaining_amount:
            return self.remaining_amount
        plan.pledge = self
        return min(plan.amount_due(today), self.remaining_amount)

    def derived_status(self) -> str:
        """The status its amount and ``paid_amount`` call for."""
        if self.paid_amount >= self.amount:
            return PledgeStatus.CONFIRMED
        return PledgeStatus.PARTLY_PAID if self.paid_amount else PledgeStatus.PENDING

    def campaign_figures(self) -> "CampaignFigures":
        """What it adds to its campaign's counters as it stands: nothing once cancelled."""
        if not self.is_live:
            return CampaignFigures()
        counts_publicly = self.user_id is not None or self.paid_amount > 0
        return CampaignFigures(
            pledged=self.amount,
            pledged_signed_in_or_paid=self.amount if counts_publicly else 0,
            raised=self.paid_amount,
            donors=1 if self.paid_amount > 0 else 0,
        )


class InstalmentPlan(models.Model):
    """How its pledger means to pay a pledge: ``instalment`` every week or month from
    ``first_due_on`` until the pledge is paid (the rule: ``pledges/instalments.py``). The schedule
    follows the pledge's amount as it stands; its reminders replace the campaign's fixed ones."""

    Frequency = instalments.Frequency

    pledge = models.OneToOneField(Pledge, on_delete=models.CASCADE, related_name="instalment_plan")
    instalment = models.PositiveIntegerField(help_text="Whole KES, at least 1; the last instalment takes the rest.")
    frequency = models.CharField(
        max_length=8,
        choices=[(Frequency.WEEKLY, _("Weekly")), (Frequency.MONTHLY, _("Monthly"))],
    )
    first_due_on = models.DateField()
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The treasurer or owner who set it; empty when the pledger did.",
    )
    standing_order = models.OneToOneField(
        "payments.MpesaStandingOrder",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="plan",
        help_text="The M-Pesa Ratiba standing order last asked for to pay this plan; dropped when the plan changes.",
    )
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(instalment__gte=1), name="pledges_plan_instalment_gte_1")]

    def __str__(self) -> str:
        return f"KES {self.instalment} {self.frequency} from {self.first_due_on} for pledge {self.pledge_id}"

    def schedule(self) -> list[instalments.Instalment]:
        return instalments.schedule(
            total=self.pledge.amount,
            instalment=self.instalment,
            frequency=instalments.Frequency(self.frequency),
            first_due_on=self.first_due_on,
        )

    @property
    def is_equal(self) -> bool:
        """Every instalment the same amount: what a standing order, which pays one amount, can pay."""
        return self.pledge.amount % self.instalment == 0

    @property
    def pays_automatically(self) -> bool:
        """Its pledger approved a standing order for it (Ratiba); reminders wait for a missed one."""
        order = self.standing_order
        return order is not None and order.status == order.Status.ACTIVE

    def amount_due(self, today: date | None = None) -> int:
        """The instalment due on ``today`` (Nairobi's, by default), or what is overdue."""
        return instalments.amount_due(
            instalments=self.schedule(), paid=self.pledge.paid_amount, today=today or timezone.localdate()
        )

    def standing(self, today: date | None = None) -> instalments.PlanStanding:
        """Where its pledger stands on ``today`` (Nairobi's, by default)."""
        return instalments.standing(
            instalments=self.schedule(), paid=self.pledge.paid_amount, today=today or timezone.localdate()
        )


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

    def donor_count(self) -> int:
        """Donors: the distinct people (see ``_person``) whose gifts without a pledge were paid (online, or
        cash and M-Pesa at the desk); a donation's account is its payment's."""
        counted = self.filter(counted_at__isnull=False)
        return counted.aggregate(donors=Count(_person(user="payment__user"), distinct=True))["donors"]


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
