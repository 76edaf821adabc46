from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from organizations.roles import Permission, Role, role_allows


class OrganizationKind(models.TextChoices):
    CHURCH = "church", _("Church")
    MINISTRY = "ministry", _("Ministry")
    SCHOOL = "school", _("School")
    GROUP = "group", _("Group")
    # Made for each organizer who ran campaigns before organizations existed, and for a new
    # organizer's first campaign: one person, their own campaigns.
    PERSONAL = "personal", _("Personal")


class Organization(models.Model):
    """Who runs campaigns: a church, ministry, school or group, and its team (``Membership``)."""

    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=OrganizationKind.choices)
    county = models.CharField(max_length=64, blank=True)
    town = models.CharField(max_length=64, blank=True)
    registration_number = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A person's place in an organization's team: one role per person and organization."""

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["organization_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "user"], name="organizations_one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.organization} ({self.role})"

    def allows(self, permission: Permission) -> bool:
        return role_allows(self.role, permission)
