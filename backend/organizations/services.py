from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError
from organizations.models import Membership, Organization, OrganizationKind
from organizations.roles import Permission, Role, role_allows
from organizations.selectors import membership_role, owned_organizations


def organization_personal_create(*, user: User) -> Organization:
    """A personal organization named after ``user``, with ``user`` as its owner: where the
    campaigns of an organizer without an organization go (as migration 0006 of campaigns did)."""
    with transaction.atomic():
        organization = Organization.objects.create(
            name=user.full_name or user.display_name, kind=OrganizationKind.PERSONAL
        )
        Membership.objects.create(organization=organization, user=user, role=Role.OWNER)
    return organization


def organization_choose_for_campaign(*, user: User, organization_id: int | None) -> Organization:
    """The organization a new campaign of ``user`` belongs to.

    ``organization_id`` given: it, if ``user`` may create campaigns there (owners). Left out: the
    one organization ``user`` owns; their new personal organization if they own none (so a first
    campaign needs no extra step); a 422 asking to choose if they own several.
    """
    if organization_id is not None:
        organization = Organization.objects.filter(pk=organization_id).first() if 1 <= organization_id < 2**63 else None
        role = membership_role(user=user, organization_id=organization_id) if organization else None
        if organization is None or role is None:
            raise NotFoundError(_("Organization not found."), code="not_found")
        if not role_allows(role, Permission.EDIT_CAMPAIGNS):
            raise PermissionDeniedError(
                _("Only an owner of the organization can create its campaigns."), code="not_owner"
            )
        return organization
    owned = list(owned_organizations(user=user)[:2])
    if len(owned) == 1:
        return owned[0]
    if not owned:
        return organization_personal_create(user=user)
    raise FieldValidationError(
        _("Please correct the errors below"),
        field_errors={"organization_id": _("Please choose the organization this campaign belongs to.")},
    )
