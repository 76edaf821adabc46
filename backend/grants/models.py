"""The grant tool: an organization's profile, the grants it can search, and what it did about them."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class OrganizationProfile(models.Model):
    """The six answers of the /grantfunding questionnaire; grants are ranked against them."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organization_profile")
    organization_name = models.CharField(max_length=200)
    mission = models.TextField(max_length=2000)
    focus_areas = models.CharField(max_length=500, help_text="Free text, e.g. 'education, clean water, youth'.")
    organization_type = models.CharField(max_length=200)
    location = models.CharField(max_length=200)
    funding_range = models.CharField(max_length=200, help_text="Free text in US dollars, e.g. '$25,001 - $50,000'.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.organization_name


class GrantCategory(models.TextChoices):
    EDUCATION = "education", _("Education")
    HEALTH = "health", _("Health")
    WATER_SANITATION = "water_sanitation", _("Water & Sanitation")
    YOUTH = "youth", _("Youth")
    WOMEN = "women", _("Women & Girls")
    AGRICULTURE = "agriculture", _("Agriculture")
    FAITH_BASED = "faith_based", _("Faith-Based")
    RELIEF = "relief", _("Relief & Emergencies")
    COMMUNITY_DEVELOPMENT = "community_development", _("Community Development")
    ENVIRONMENT = "environment", _("Environment")
    LIVELIHOODS = "livelihoods", _("Livelihoods")
    OTHER = "other", _("Other")


class AmountBracket(models.TextChoices):
    """Spec section 9: the search's amount filter, in whole US dollars, both ends included."""

    UP_TO_25K = "0-25000", _("Up to $25,000")
    UP_TO_50K = "25001-50000", _("$25,001 - $50,000")
    UP_TO_100K = "50001-100000", _("$50,001 - $100,000")
    UP_TO_500K = "100001-500000", _("$100,001 - $500,000")

    @property
    def bounds(self) -> tuple[int, int]:
        low, high = self.value.split("-")
        return int(low), int(high)


class GrantQuerySet(models.QuerySet["Grant"]):
    def current(self) -> "GrantQuerySet":
        """The grants the search offers: not retired."""
        return self.filter(retired_at__isnull=True)


class Grant(models.Model):
    """A funding opportunity; operators add, edit and retire them in the Django admin."""

    title = models.CharField(max_length=200)
    organization = models.CharField(max_length=200, help_text="Who gives the grant.")
    category = models.CharField(max_length=32, choices=GrantCategory.choices)
    amount_usd = models.PositiveIntegerField(help_text="Whole US dollars.")
    location = models.CharField(max_length=200, help_text="Where applicants must work, e.g. 'Kenya', 'East Africa'.")
    deadline = models.DateField()
    description = models.TextField()
    website = models.URLField(max_length=500, help_text="The grant maker's page about the grant.")
    # What staff record in the admin. Every new field has a database default too, so rows written by
    # code that predates it (a restored backup, a migration test stepping back and forth) stay valid.
    application_url = models.URLField(
        max_length=500, blank=True, default="", db_default="", help_text="Where to apply; empty: the website."
    )
    regions = models.CharField(
        max_length=300, blank=True, default="", db_default="", help_text="E.g. 'Nairobi, Central, Rift Valley'."
    )
    focus_areas = models.CharField(
        max_length=300, blank=True, default="", db_default="", help_text="E.g. 'education, youth, clean water'."
    )
    amount_min_usd = models.PositiveIntegerField(null=True, blank=True, help_text="Smallest award, whole US dollars.")
    amount_max_usd = models.PositiveIntegerField(null=True, blank=True, help_text="Largest award, whole US dollars.")
    is_sample = models.BooleanField(
        default=False, db_default=False, help_text="An illustration (the seeded ones): 'Apply Now' says so."
    )
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="Retired grants leave the search; their applications are kept."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GrantQuerySet.as_manager()

    class Meta:
        ordering = ["deadline", "id"]

    def __str__(self) -> str:
        return self.title

    @property
    def apply_url(self) -> str:
        """Where 'Apply Now' leads: for a sample, this site's page saying it is one."""
        if self.is_sample:
            return SAMPLE_GRANT_PAGE
        return self.application_url or self.website

    def is_past_deadline(self) -> bool:
        return self.deadline < timezone.localdate()


# The client route that says a grant is a sample (config/spa.py, frontend App.tsx).
SAMPLE_GRANT_PAGE = "/grantfunding/sample-grant"


class GrantApplication(models.Model):
    """One user's tracking of one grant."""

    class State(models.TextChoices):
        SAVED = "saved", _("Saved")
        APPLIED = "applied", _("Applied")
        AWARDED = "awarded", _("Awarded")
        DECLINED = "declined", _("Declined")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="grant_applications")
    grant = models.ForeignKey(Grant, on_delete=models.CASCADE, related_name="applications")
    state = models.CharField(max_length=16, choices=State.choices)
    note = models.TextField(max_length=1000, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "grant"], name="grants_application_user_grant_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.grant_id}: {self.state}"
