"""An organization and its details: created, chosen for a campaign, updated, renamed."""

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from organizations.models import (
    ChangeRequest,
    ChangeRequestStatus,
    Membership,
    Organization,
    OrganizationKind,
)
from organizations.roles import Permission, Role, role_allows
from organizations.selectors import (
    membership_allowed,
    membership_role,
    owned_organizations,
)
from organizations.services.change_requests import change_request_submit

DETAIL_MAX_LENGTHS = {"name": 200, "county": 64, "town": 64, "registration_number": 64, "statement_signatory": 120}


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


ORGANIZATION_RENAME = "organization.rename"


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
    approved_charity: bool | None = None,
    statement_signatory: str | None = None,
) -> Membership | ChangeRequest:
    """Change the organization's details (owners); ``None`` leaves a field as it is. Audited.

    Givers read the name as the one they pay, so a new name goes through the two-person rule
    (``organization.rename``): with two or more owners and treasurers it waits for another's
    approval and the pending ``ChangeRequest`` is answered; the other details change at once. Naming
    a personal organization says what it is too (its kind travels with the name)."""
    membership = membership_allowed(user=user, organization_id=organization_id, permission=Permission.MANAGE_TEAM)
    organization = membership.organization
    changes: dict[str, str | bool] = dict(
        _details_checked(
            fields={
                "name": name,
                "county": county,
                "town": town,
                "registration_number": registration_number,
                "statement_signatory": statement_signatory,
            },
            kind=kind,
            was_kind=organization.kind,
        )
    )
    if approved_charity is not None:
        changes["approved_charity"] = approved_charity
    new_name = str(changes.pop("name", organization.name))
    renamed = new_name != organization.name
    payload: dict[str, object] = {"name": new_name, "was": organization.name}
    if organization.needs_name:
        # A personal organization is named and says what it is at once: neither changes alone.
        if renamed != ("kind" in changes):
            missing = "kind" if renamed else "name"
            messages = {
                "kind": _("Please choose church, ministry, school or group."),
                "name": _("Please enter the organization's name."),
            }
            raise FieldValidationError(_("Please correct the errors below"), field_errors={missing: messages[missing]})
        if renamed:
            payload["kind"] = changes.pop("kind")
    _details_set(actor=user, organization=organization, changes=changes)
    if not renamed:
        return membership
    request = change_request_submit(
        user=user,
        organization=organization,
        kind=ORGANIZATION_RENAME,
        payload=payload,
        summary=_organization_rename_describe(ChangeRequest(kind=ORGANIZATION_RENAME, payload=payload)),
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    membership.organization.refresh_from_db()
    return membership


def _details_set(*, actor: User, organization: Organization, changes: dict[str, str | bool]) -> None:
    """Save ``changes`` to the organization's details and audit them (nothing when empty)."""
    if not changes:
        return
    before = {field: getattr(organization, field) for field in changes}
    for field, value in changes.items():
        setattr(organization, field, value)
    organization.save(update_fields=[*changes, "updated_at"])
    audit_record(actor=actor, action=AuditAction.ORGANIZATION_EDITED, target=organization, before=before, after=changes)


def _organization_rename_describe(request: ChangeRequest) -> str:
    return _("Rename the organization “%(was)s” to “%(name)s” (givers see this name as the one they pay).") % {
        "was": request.payload["was"],
        "name": request.payload["name"],
    }


def _organization_rename_apply(request: ChangeRequest) -> None:
    organization = request.organization
    if organization.name != request.payload["was"]:
        raise ServiceError(
            _("The organization was renamed since the request was made: please ask again."), code="renamed"
        )
    assert request.decided_by is not None
    changes: dict[str, str | bool] = {"name": str(request.payload["name"])}
    if "kind" in request.payload:
        changes["kind"] = str(request.payload["kind"])
    _details_set(actor=request.decided_by, organization=organization, changes=changes)
