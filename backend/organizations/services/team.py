"""The team's own guarded changes: roles and removals."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from organizations.approvals import change_kind, register_change_kind
from organizations.models import (
    ChangeRequest,
    ChangeRequestStatus,
    Membership,
)
from organizations.roles import GUARDED_ROLES, Permission, Role
from organizations.selectors import (
    membership_allowed,
    membership_of,
)
from organizations.services.change_requests import (
    _change_request_audit,
    _keep_an_owner,
    _team_member_get,
    change_request_submit,
)
from organizations.services.core import ORGANIZATION_RENAME, _organization_rename_apply, _organization_rename_describe

# The team's own guarded changes: raising to, lowering from or removing an owner or treasurer.

TEAM_ROLE_CHANGE = "team.role_change"
TEAM_MEMBER_REMOVE = "team.member_remove"
TEAM_MEMBER_ADD = "team.member_add"

TeamChange = Membership | ChangeRequest


def _audit_team_change(*, actor: User, member: Membership, before: str | None, after: str | None) -> None:
    audit_record(
        actor=actor,
        action=AuditAction.TEAM_CHANGED,
        target=member.organization,
        before={"member": member.user.email, "role": before},
        after={"member": member.user.email, "role": after},
    )


def _role_label(role: str) -> str:
    return str(Role(role).label).lower()


def _team_role_change_describe(request: ChangeRequest) -> str:
    payload = request.payload
    return _("Make %(name)s %(role)s (now %(was)s).") % {
        "name": payload["name"],
        "role": _role_label(str(payload["role"])),
        "was": _role_label(str(payload["was"])),
    }


def _team_member_remove_describe(request: ChangeRequest) -> str:
    return _("Remove %(name)s (%(role)s) from the team.") % {
        "name": request.payload["name"],
        "role": _role_label(str(request.payload["was"])),
    }


def _requests_of_former_guardian_withdraw(*, member: Membership) -> None:
    """Once ``member`` is no longer an owner or treasurer (left, removed, or another role), the
    changes they asked for and nobody approved yet are withdrawn (audited, by no one): no one is left
    to answer for them, so none may be approved, and the team sees them as withdrawn."""
    pending = ChangeRequest.objects.select_for_update().filter(
        organization_id=member.organization_id, requested_by_id=member.user_id, status=ChangeRequestStatus.PENDING
    )
    for request in pending:
        request.status = ChangeRequestStatus.WITHDRAWN
        request.decided_at = timezone.now()
        request.save(update_fields=["status", "decided_at"])
        _change_request_audit(actor=None, action=AuditAction.CHANGE_WITHDRAWN, request=request)


def _role_set(*, actor: User, member: Membership, role: str) -> None:
    _keep_an_owner(member=member, new_role=role)
    before = member.role
    member.role = role
    member.save(update_fields=["role", "updated_at"])
    _audit_team_change(actor=actor, member=member, before=before, after=role)
    if role not in GUARDED_ROLES:
        _requests_of_former_guardian_withdraw(member=member)


def _member_delete(*, actor: User, member: Membership) -> None:
    _keep_an_owner(member=member, new_role=None)
    _audit_team_change(actor=actor, member=member, before=member.role, after=None)
    _requests_of_former_guardian_withdraw(member=member)
    member.delete()


def _requested_member(request: ChangeRequest) -> Membership:
    member = _team_member_get(organization=request.organization, membership_id=int(request.payload["membership_id"]))
    if member.role != request.payload["was"]:
        raise ServiceError(
            _("This person's role changed since the request was made: please ask again."), code="team_changed"
        )
    return member


def _team_role_change_apply(request: ChangeRequest) -> None:
    assert request.decided_by is not None
    _role_set(actor=request.decided_by, member=_requested_member(request), role=str(request.payload["role"]))


def _team_member_remove_apply(request: ChangeRequest) -> None:
    assert request.decided_by is not None
    _member_delete(actor=request.decided_by, member=_requested_member(request))


def _team_member_add_describe(request: ChangeRequest) -> str:
    return _("Add %(name)s to the team as %(role)s (accepted an invitation).") % {
        "name": request.payload["name"],
        "role": _role_label(str(request.payload["role"])),
    }


def _team_member_add_apply(request: ChangeRequest) -> None:
    user = User.objects.filter(pk=int(request.payload["user_id"]), is_active=True).first()
    if user is None:
        raise NotFoundError(_("This person no longer has an account."), code="not_found")
    if Membership.objects.filter(organization=request.organization, user=user).exists():
        raise ServiceError(_("This person is already in the team."), code="already_member")
    member = Membership.objects.create(organization=request.organization, user=user, role=str(request.payload["role"]))
    assert request.decided_by is not None
    _audit_team_change(actor=request.decided_by, member=member, before=None, after=member.role)


def register_team_change_kinds() -> None:
    """Called by ``OrganizationsConfig.ready``."""
    register_change_kind(TEAM_ROLE_CHANGE, apply=_team_role_change_apply, describe=_team_role_change_describe)
    register_change_kind(TEAM_MEMBER_REMOVE, apply=_team_member_remove_apply, describe=_team_member_remove_describe)
    register_change_kind(TEAM_MEMBER_ADD, apply=_team_member_add_apply, describe=_team_member_add_describe)
    register_change_kind(ORGANIZATION_RENAME, apply=_organization_rename_apply, describe=_organization_rename_describe)


def _team_change_submit(*, user: User, member: Membership, kind: str, payload: dict[str, object]) -> ChangeRequest:
    payload = {
        "membership_id": member.pk,
        "user_id": member.user_id,  # who it is about: may not approve being raised (ChangeRequest.beneficiary_id)
        "name": member.user.full_name or member.user.display_name,
        **payload,
    }
    describe = change_kind(kind).describe
    summary = describe(ChangeRequest(kind=kind, payload=payload))
    return change_request_submit(
        user=user, organization=member.organization, kind=kind, payload=payload, summary=summary
    )


@transaction.atomic
def team_role_change(*, user: User, organization_id: int, membership_id: int, role: str) -> TeamChange:
    """Give a member of the team another role (owners). Raising to or lowering from owner or
    treasurer goes through the two-person rule: answers the pending ``ChangeRequest`` when it
    waits for approval, else the member. Audited; the last owner keeps the role."""
    organization = membership_allowed(
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
    if member.role in GUARDED_ROLES or role in GUARDED_ROLES:
        request = _team_change_submit(
            user=user, member=member, kind=TEAM_ROLE_CHANGE, payload={"role": role, "was": member.role}
        )
        if request.status == ChangeRequestStatus.PENDING:
            return request
        member.refresh_from_db()
        return member
    _role_set(actor=user, member=member, role=role)
    return member


@transaction.atomic
def team_member_remove(*, user: User, organization_id: int, membership_id: int) -> ChangeRequest | None:
    """Take someone out of the team: owners may remove anyone, anyone may leave. Removing an owner
    or treasurer (not oneself) goes through the two-person rule: answers the pending
    ``ChangeRequest`` when it waits for approval, else None. Audited; the last owner stays."""
    own = membership_of(user=user, organization_id=organization_id)
    leaving = own.pk == membership_id
    if not leaving and not own.allows(Permission.MANAGE_TEAM):
        raise PermissionDeniedError(
            _("Only the organization's owners can change its details and its team."), code="not_owner"
        )
    member = _team_member_get(organization=own.organization, membership_id=membership_id)
    _keep_an_owner(member=member, new_role=None)
    # Leaving gives no one more power than they had: no second person needed.
    if member.role in GUARDED_ROLES and not leaving:
        request = _team_change_submit(user=user, member=member, kind=TEAM_MEMBER_REMOVE, payload={"was": member.role})
        return request if request.status == ChangeRequestStatus.PENDING else None
    _member_delete(actor=user, member=member)
    return None
