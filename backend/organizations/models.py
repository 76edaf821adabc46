import hashlib
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
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
    # A yearly statement of giving (giving/statement_pdf.py) names the registration number and gives a
    # signature line when the organization is an approved charity (gifts to it may be claimed on tax).
    approved_charity = models.BooleanField(
        default=False, help_text="An approved charity: givers' yearly statements carry a signature line."
    )
    statement_signatory = models.CharField(
        max_length=120, blank=True, help_text="Who signs its yearly statements, e.g. 'Rev. J. Kamau, Treasurer'."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def needs_name(self) -> bool:
        """A personal organization, made for an organizer's campaigns and named after them: its owner
        is asked to name it (and say what it is), as givers read its name as the one they pay."""
        return self.kind == OrganizationKind.PERSONAL

    @property
    def payee_name(self) -> str:
        """The name public pages, the big screen and messages give as the one the money goes to:
        never a person's, so '' while the organization is still a personal one named after its owner."""
        return "" if self.needs_name else self.name


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


class ChangeRequestStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    APPLIED = "applied", _("Applied")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    EXPIRED = "expired", _("Expired")


class ChangeRequest(models.Model):
    """A change that needs a second person (the two-person rule): asked for by one owner, applied
    when another owner or treasurer approves (``organizations.approvals`` says how each ``kind``
    is applied and described). A pending request past ``expires_at`` counts as expired even
    before the sweep (``change_requests_expire``) writes it down."""

    LIFETIME = timedelta(days=7)

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="change_requests")
    kind = models.CharField(max_length=64)
    payload = models.JSONField(default=dict)
    summary = models.TextField()
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=16, choices=ChangeRequestStatus.choices, default=ChangeRequestStatus.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["organization", "status"], name="organizations_change_status")]

    def __str__(self) -> str:
        return f"{self.organization}: {self.summary[:120]}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.expires_at is None:
            self.expires_at = self.created_at + self.LIFETIME
        super().save(*args, **kwargs)

    def current_status(self, now: datetime | None = None) -> str:
        """The status as it stands at ``now``: a pending request past its expiry is expired."""
        if self.status == ChangeRequestStatus.PENDING and self.expires_at <= (now or timezone.now()):
            return ChangeRequestStatus.EXPIRED
        return self.status

    def is_open(self) -> bool:
        return self.current_status() == ChangeRequestStatus.PENDING

    def beneficiary_id(self) -> int | None:
        """The account a team change raises (its arrival in the team, or a role that may do more: owner
        over treasurer over the rest), which may not approve it; None for other changes, and for a
        removal or a lowering, which the one it is about may accept. The payload's ``user_id`` names
        them; requests made before it was written name only the membership."""
        payload = self.payload
        rank = {"owner": 2, "treasurer": 1}
        if "role" not in payload or rank.get(str(payload["role"]), 0) <= rank.get(str(payload.get("was", "")), 0):
            return None
        if "user_id" in payload:
            return int(str(payload["user_id"]))
        return (
            Membership.objects.filter(pk=int(str(payload["membership_id"]))).values_list("user_id", flat=True).first()
        )


class Invitation(models.Model):
    """An invitation to join the team in ``role``, sent by e-mail or SMS as a link with a token
    (only its SHA-256 is kept). Accepted once, within ``LIFETIME``, and only by an account whose
    e-mail is ``email`` or whose verified phone is ``phone``; owners may revoke it before."""

    LIFETIME = timedelta(days=7)

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=16, choices=Role.choices)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=16, blank=True, help_text="E.164")
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.organization}: {self.email or self.phone} ({self.role})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.expires_at is None:
            self.expires_at = self.created_at + self.LIFETIME
        super().save(*args, **kwargs)

    @staticmethod
    def hash_token(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @staticmethod
    def link(token: str) -> str:
        """The address that opens the invitation: e-mailed or texted, or passed on by the inviter."""
        return f"{settings.SITE_URL}/invitation?token={token}"

    @property
    def status(self) -> str:
        if self.accepted_at:
            return "accepted"
        if self.revoked_at:
            return "revoked"
        return "expired" if self.expires_at <= timezone.now() else "pending"

    @property
    def sent_to(self) -> str:
        return self.email or self.phone


class EmbedOrigin(models.Model):
    """A website the organization's team registered to show its campaigns' embed (config/embed.py):
    the embed page's ``frame-ancestors`` lists these origins and no other. Stored as the browser
    writes an origin (``scheme://host[:port]``, lower case, no default port), so the list goes into
    the header as it is."""

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="embed_origins")
    origin = models.CharField(max_length=300)
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["organization_id", "origin"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "origin"], name="organizations_one_embed_origin_each")
        ]

    def __str__(self) -> str:
        return f"{self.organization}: {self.origin}"
