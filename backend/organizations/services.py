from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from organizations.models import Membership, Organization, OrganizationKind
from organizations.roles import Permission, Role, role_allows
from organizations.selectors import membership_of, membership_role, owned_organizations

DETAIL_MAX_LENGTHS = {"name": 200, "county": 64, "town": 64, "registration_number": 64}


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


def _details_checked(*, fields: dict[str, str | None], kind: str | None, was_kind: str | None) -> dict[str, str]:
    """The details to save, stripped; FieldValidationError with every problem at once. The
    personal kind is only kept, never chosen."""
    errors: dict[str, str] = {}
    changes: dict[str, str] = {}
    for field, value in fields.items():
        if value is None:
            continue
        changes[field] = value = value.strip()
        if field == "name" and not value:
            errors[field] = _("Please enter the organization's name.")
        elif len(value) > DETAIL_MAX_LENGTHS[field]:
            errors[field] = _("Please keep this under %(count)d characters.") % {"count": DETAIL_MAX_LENGTHS[field]}
    if kind is not None and kind != was_kind:
        if kind == OrganizationKind.PERSONAL or kind not in OrganizationKind.values:
            errors["kind"] = _("Please choose church, ministry, school or group.")
        changes["kind"] = kind
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    return changes


@transaction.atomic
def organization_create(
    *, user: User, name: str, kind: str, county: str, town: str, registration_number: str
) -> Membership:
    """A new organization with ``user`` as its first owner; answers that membership."""
    details = _details_checked(
        fields={"name": name, "county": county, "town": town, "registration_number": registration_number},
        kind=kind,
        was_kind=None,
    )
    organization = Organization.objects.create(**details)
    return Membership.objects.create(organization=organization, user=user, role=Role.OWNER)


def _membership_allowed(*, user: User, organization_id: int, permission: Permission) -> Membership:
    """``user``'s membership if their role has ``permission``: 404 for outsiders, 403 for members without it."""
    membership = membership_of(user=user, organization_id=organization_id)
    if not membership.allows(permission):
        raise PermissionDeniedError(
            _("Only the organization's owners can change its details and its team."), code="not_owner"
        )
    return membership


@transaction.atomic
def organization_update(
    *,
    user: User,
    organization_id: int,
    name: str | None = None,
    kind: str | None = None,
    county: str | None = None,
    town: str | None = None,
    registration_number: str | None = None,
) -> Membership:
    """Change the organization's details (owners); ``None`` leaves a field as it is. Audited."""
    membership = _membership_allowed(user=user, organization_id=organization_id, permission=Permission.MANAGE_TEAM)
    organization = membership.organization
    changes = _details_checked(
        fields={"name": name, "county": county, "town": town, "registration_number": registration_number},
        kind=kind,
        was_kind=organization.kind,
    )
    before = {field: getattr(organization, field) for field in changes}
    for field, value in changes.items():
        setattr(organization, field, value)
    organization.save(update_fields=[*changes, "updated_at"])
    audit_record(actor=user, action=AuditAction.ORGANIZATION_EDITED, target=organization, before=before, after=changes)
    return membership


def _team_member_get(*, organization: Organization, membership_id: int) -> Membership:
    member = (
        Membership.objects.select_for_update()
        .select_related("user")
        .filter(organization=organization, pk=membership_id)
        .first()
        if 1 <= membership_id < 2**63
        else None
    )
    if member is None:
        raise NotFoundError(_("This person is not in the organization's team."), code="not_found")
    return member


def _keep_an_owner(*, member: Membership, new_role: str | None) -> None:
    """An organization always keeps an owner: the last one can be neither demoted nor removed."""
    if member.role != Role.OWNER or new_role == Role.OWNER:
        return
    owners = Membership.objects.select_for_update().filter(organization_id=member.organization_id, role=Role.OWNER)
    if owners.count() <= 1:
        raise ServiceError(
            _("The organization needs at least one owner: make someone else an owner first."), code="last_owner"
        )


def _audit_team_change(*, actor: User, member: Membership, before: str | None, after: str | None) -> None:
    audit_record(
        actor=actor,
        action=AuditAction.TEAM_CHANGED,
        target=member.organization,
        before={"member": member.user.email, "role": before},
        after={"member": member.user.email, "role": after},
    )


@transaction.atomic
def team_role_change(*, user: User, organization_id: int, membership_id: int, role: str) -> Membership:
    """Give a member of the team another role (owners). Audited; the last owner keeps the role."""
    organization = _membership_allowed(
        user=user, organization_id=organization_id, permission=Permission.MANAGE_TEAM
    ).organization
    member = _team_member_get(organization=organization, membership_id=membership_id)
    if role not in Role.values:
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"role": _("Please choose a role.")}
        )
    if member.role == role:
        return member
    _keep_an_owner(member=member, new_role=role)
    before = member.role
    member.role = role
    member.save(update_fields=["role", "updated_at"])
    _audit_team_change(actor=user, member=member, before=before, after=role)
    return member


@transaction.atomic
def team_member_remove(*, user: User, organization_id: int, membership_id: int) -> None:
    """Take someone out of the team: owners may remove anyone, anyone may leave. Audited; the last
    owner stays."""
    own = membership_of(user=user, organization_id=organization_id)
    leaving = own.pk == membership_id
    if not leaving and not own.allows(Permission.MANAGE_TEAM):
        raise PermissionDeniedError(
            _("Only the organization's owners can change its details and its team."), code="not_owner"
        )
    member = _team_member_get(organization=own.organization, membership_id=membership_id)
    _keep_an_owner(member=member, new_role=None)
    _audit_team_change(actor=user, member=member, before=member.role, after=None)
    member.delete()
