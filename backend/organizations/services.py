import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from organizations import signals
from organizations.approvals import change_kind, register_change_kind
from organizations.models import (
    ChangeRequest,
    ChangeRequestStatus,
    Invitation,
    Membership,
    Organization,
    OrganizationKind,
)
from organizations.roles import GUARDED_ROLES, Permission, Role, role_allows
from organizations.selectors import (
    guarded_member_count,
    membership_allowed,
    membership_of,
    membership_role,
    owned_organizations,
)
from organizations.team_messages import team_message_allowed

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


def _change_request_audit(*, actor: User | None, action: str, request: ChangeRequest) -> None:
    audit_record(
        actor=actor,
        action=action,
        target=request.organization,
        after={"change_request": request.pk, "kind": request.kind, "summary": request.summary},
    )


def _change_request_apply(*, request: ChangeRequest, by: User, answer: dict[str, object] | None = None) -> None:
    """Make the change (its kind's ``apply``, given what its ``call`` answered) and record it:
    applied, audited, announced on commit."""
    request.status = ChangeRequestStatus.APPLIED
    request.decided_by = by
    request.decided_at = timezone.now()
    fields = ["status", "decided_by", "decided_at"]
    if answer is not None:
        request.payload = {**request.payload, "answer": answer}
        fields.append("payload")
    change_kind(request.kind).apply(request)
    request.save(update_fields=fields)
    _change_request_audit(actor=by, action=AuditAction.CHANGE_APPLIED, request=request)
    transaction.on_commit(partial(signals.change_applied.send, sender=ChangeRequest, change_request=request))


def change_request_submit(
    *, user: User, organization: Organization, kind: str, payload: dict[str, object], summary: str
) -> ChangeRequest:
    """Ask for a change that the two-person rule guards (the caller has checked that ``user`` may
    ask for it). With two or more owners and treasurers it waits, pending, for another of them to
    approve (``change_request_approve``); with fewer it applies at once. Either way every owner and
    treasurer is told (signals) and it is audited.

    A kind that asks an outside service first (``call``) is asked before anything is written, and
    the caller must not be inside a transaction then (common/network.py); a refusal writes nothing."""
    change = change_kind(kind)  # an unregistered kind is a programming error, found before anything is written
    answer = None
    if change.call is not None and guarded_member_count(organization=organization) < 2:
        answer = change.call(ChangeRequest(organization=organization, kind=kind, payload=payload, requested_by=user))
    with transaction.atomic():
        # One request at a time per organization decides whether a second person is needed.
        Organization.objects.select_for_update().filter(pk=organization.pk).first()
        applies_now = guarded_member_count(organization=organization) < 2
        if applies_now and change.call is not None and answer is None:
            # Owners or treasurers left between the look above and now: ask again.
            raise ServiceError(_("The team changed meanwhile: please try again."), code="team_changed")
        request = ChangeRequest.objects.create(
            organization=organization, kind=kind, payload=payload, summary=summary, requested_by=user
        )
        _change_request_audit(actor=user, action=AuditAction.CHANGE_REQUESTED, request=request)
        if applies_now:
            _change_request_apply(request=request, by=user, answer=answer)
        else:
            transaction.on_commit(partial(signals.change_requested.send, sender=ChangeRequest, change_request=request))
    return request


def _change_request_get(*, organization: Organization, change_request_id: int) -> ChangeRequest:
    request = (
        ChangeRequest.objects.select_for_update().filter(organization=organization, pk=change_request_id).first()
        if 1 <= change_request_id < 2**63
        else None
    )
    if request is None:
        raise NotFoundError(_("This request was not found."), code="not_found")
    request.organization = organization
    return request


def _still_open(request: ChangeRequest) -> None:
    if not request.is_open():
        raise ServiceError(
            _("This request was already applied or withdrawn, or it has expired."), code="change_request_closed"
        )


def _approver_check(*, user: User, request: ChangeRequest) -> None:
    """Neither the one who asked nor the one the change raises approves it: a treasurer must not
    approve their own promotion. Where they are the only other owner or treasurer, the request waits
    for a third one (or an admin, ``change_request_approve_as_admin``), or expires. A request whose
    asker has left (their requests are withdrawn as they leave) is approved by no one."""
    if request.requested_by_id == user.pk:
        raise PermissionDeniedError(
            _("Another owner or treasurer must approve a change you asked for."), code="own_change_request"
        )
    if request.beneficiary_id() == user.pk:
        raise PermissionDeniedError(
            _("Another owner or treasurer must approve a change that raises you."),
            code="own_team_change",
        )
    if (
        request.requested_by_id is None
        or not Membership.objects.filter(
            organization=request.organization, user_id=request.requested_by_id, role__in=GUARDED_ROLES
        ).exists()
    ):
        raise ServiceError(
            _("Whoever asked for this change is no longer an owner or treasurer here: it cannot be approved."),
            code="change_request_closed",
        )


def _approvable(*, user: User, organization_id: int, change_request_id: int) -> ChangeRequest:
    """The request, locked, once ``user`` may approve it now."""
    membership = membership_of(user=user, organization_id=organization_id)
    request = _change_request_get(organization=membership.organization, change_request_id=change_request_id)
    if membership.role not in GUARDED_ROLES:
        raise PermissionDeniedError(
            _("Only an owner or a treasurer of the organization can approve this change."), code="not_approver"
        )
    _still_open(request)
    _approver_check(user=user, request=request)
    return request


def _approvable_by_admin(*, admin: User, change_request_id: int) -> ChangeRequest:
    """The request, locked, once the site admin ``admin`` may approve it now."""
    if not admin.is_staff:
        raise PermissionDeniedError(_("Only an admin can do this."), code="not_admin")
    found = ChangeRequest.objects.select_related("organization").filter(pk=change_request_id).first()
    if found is None:
        raise NotFoundError(_("This request was not found."), code="not_found")
    request = _change_request_get(organization=found.organization, change_request_id=change_request_id)
    _still_open(request)
    _approver_check(user=admin, request=request)
    return request


def _approve(*, approvable: Callable[[], ChangeRequest], by: User) -> ChangeRequest:
    """Applies the request ``approvable`` finds approvable. A kind that asks an outside service
    (``call``) asks it between two short transactions, never inside one: the first checks the
    approval, the second checks it again (the request may have been withdrawn meanwhile) and
    records the change."""
    with transaction.atomic():
        request = approvable()
        call = change_kind(request.kind).call
        if call is None:
            _change_request_apply(request=request, by=by)
            return request
    answer = call(request)
    with transaction.atomic():
        request = approvable()
        _change_request_apply(request=request, by=by, answer=answer)
    return request


def change_request_approve(*, user: User, organization_id: int, change_request_id: int) -> ChangeRequest:
    """Another owner or treasurer than the one who asked, and than the one it raises, approves: the
    change applies now (refused, and still pending, if its kind's rules refuse it). Audited."""
    return _approve(
        approvable=partial(
            _approvable, user=user, organization_id=organization_id, change_request_id=change_request_id
        ),
        by=user,
    )


def change_request_approve_as_admin(*, admin: User, change_request_id: int) -> ChangeRequest:
    """A site admin approves a request that no one else in its organization may (in Django's admin):
    as ``change_request_approve``, never their own request nor one raising themselves. Audited."""
    return _approve(
        approvable=partial(_approvable_by_admin, admin=admin, change_request_id=change_request_id), by=admin
    )


@transaction.atomic
def change_request_withdraw(*, user: User, organization_id: int, change_request_id: int) -> ChangeRequest:
    """Whoever asked for the change, or an owner, takes it back before it applies. Audited."""
    membership = membership_of(user=user, organization_id=organization_id)
    request = _change_request_get(organization=membership.organization, change_request_id=change_request_id)
    if request.requested_by_id != user.pk and not membership.allows(Permission.MANAGE_TEAM):
        raise PermissionDeniedError(
            _("Only the person who asked for this change or an owner can withdraw it."), code="not_owner"
        )
    _still_open(request)
    request.status = ChangeRequestStatus.WITHDRAWN
    request.decided_by = user
    request.decided_at = timezone.now()
    request.save(update_fields=["status", "decided_by", "decided_at"])
    _change_request_audit(actor=user, action=AuditAction.CHANGE_WITHDRAWN, request=request)
    return request


def change_requests_expire(*, now: datetime | None = None) -> int:
    """Write down as expired the pending requests past their 7 days (run by the scheduler; they
    already count as expired before, ``ChangeRequest.current_status``). Audited, by no one."""
    now = now or timezone.now()
    expired = 0
    for request_id in ChangeRequest.objects.filter(status=ChangeRequestStatus.PENDING, expires_at__lte=now).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            request = (
                ChangeRequest.objects.select_for_update()
                .select_related("organization")
                .filter(pk=request_id, status=ChangeRequestStatus.PENDING)
                .first()
            )
            if request is None:
                continue  # decided meanwhile (another scheduler, a withdrawal)
            request.status = ChangeRequestStatus.EXPIRED
            request.decided_at = request.expires_at
            request.save(update_fields=["status", "decided_at"])
            _change_request_audit(actor=None, action=AuditAction.CHANGE_EXPIRED, request=request)
            expired += 1
    return expired


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


# Invitations: a link by e-mail or SMS, for the invited address or verified number only.


def _invitation_audit(*, actor: User, action: str, invitation: Invitation) -> None:
    audit_record(
        actor=actor,
        action=action,
        target=invitation.organization,
        after={"invitation": invitation.pk, "sent_to": invitation.sent_to, "role": invitation.role},
    )


def _invitee_checked(*, email: str, phone: str) -> tuple[str, str]:
    """The e-mail address (lower case) or E.164 number to invite: exactly one of them."""
    email, phone = email.strip(), phone.strip()
    if bool(email) == bool(phone):
        one = _("Please enter either an email address or a Kenyan phone number.")
        raise FieldValidationError(_("Please correct the errors below"), field_errors={"email": one})
    if email:
        if problem := validators.check_email(email):
            raise FieldValidationError(_("Please correct the errors below"), field_errors={"email": problem})
        return User.normalize_email_address(email), ""
    if problem := validators.check_kenyan_phone(phone):
        raise FieldValidationError(_("Please correct the errors below"), field_errors={"phone": problem})
    return "", validators.normalize_kenyan_phone(phone)


@dataclass(frozen=True)
class InvitationMade:
    invitation: Invitation
    # The inviter's share of team messages was used up (organizations/team_messages.py): nothing was
    # sent, and ``link`` is for them to pass on. Blank when the link went out by e-mail or SMS.
    held: bool
    link: str


@transaction.atomic
def invitation_create(*, user: User, organization_id: int, email: str, phone: str, role: str) -> InvitationMade:
    """Invite someone into the team (owners), by e-mail or Kenyan phone number: the link goes out
    after commit (signal), unless the inviter's team messages are used up: then it is held, and
    the answer gives the inviter the link. Audited. Joining as owner or treasurer will need the
    two-person rule."""
    organization = membership_allowed(
        user=user, organization_id=organization_id, permission=Permission.MANAGE_TEAM
    ).organization
    if role not in Role.values:
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"role": _("Please choose a role.")}
        )
    email, phone = _invitee_checked(email=email, phone=phone)
    if email and Membership.objects.filter(organization=organization, user__email__iexact=email).exists():
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"email": _("This person is already in the team.")}
        )
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        organization=organization,
        role=role,
        email=email,
        phone=phone,
        token_hash=Invitation.hash_token(token),
        invited_by=user,
    )
    _invitation_audit(actor=user, action=AuditAction.INVITATION_SENT, invitation=invitation)
    if not team_message_allowed(organization_id=organization.pk, member_id=user.pk):
        return InvitationMade(invitation=invitation, held=True, link=Invitation.link(token))
    transaction.on_commit(
        partial(signals.invitation_created.send, sender=Invitation, invitation=invitation, token=token)
    )
    return InvitationMade(invitation=invitation, held=False, link="")


@transaction.atomic
def invitation_revoke(*, user: User, organization_id: int, invitation_id: int) -> None:
    """Take back an invitation not yet accepted (owners). Audited."""
    organization = membership_allowed(
        user=user, organization_id=organization_id, permission=Permission.MANAGE_TEAM
    ).organization
    invitation = (
        Invitation.objects.select_for_update().filter(organization=organization, pk=invitation_id).first()
        if 1 <= invitation_id < 2**63
        else None
    )
    if invitation is None:
        raise NotFoundError(_("This invitation was not found."), code="not_found")
    if invitation.accepted_at:
        raise ServiceError(_("This invitation was already accepted."), code="invitation_used")
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        _invitation_audit(actor=user, action=AuditAction.INVITATION_REVOKED, invitation=invitation)


def _invitation_for_acceptor(*, invitation: Invitation, user: User) -> None:
    """Only the invited one: the same e-mail address, or the invited number proven on their account."""
    if invitation.email:
        if User.normalize_email_address(user.email) != invitation.email:
            raise PermissionDeniedError(
                _("This invitation was sent to another email address. Sign in with that address to accept it."),
                code="invitation_not_yours",
            )
    elif user.verified_phone != invitation.phone:
        raise PermissionDeniedError(
            _("This invitation was sent by SMS to %(phone)s. Verify that number on your account to accept it.")
            % {"phone": invitation.phone},
            code="phone_not_verified",
        )


@transaction.atomic
def invitation_accept(*, user: User, token: str) -> Membership | ChangeRequest:
    """Join the team with the invitation's role: at once, or, for an owner or treasurer where the
    two-person rule holds, once another owner or treasurer approves (answers the pending request,
    asked for in the inviter's name). The invitation is used up either way. Audited."""
    invitation = (
        # Only the invitation's row is locked: PostgreSQL locks no nullable side of an outer join.
        Invitation.objects.select_for_update(of=("self",))
        .select_related("organization", "invited_by")
        .filter(token_hash=Invitation.hash_token(token.strip()))
        .first()
    )
    if invitation is None:
        raise NotFoundError(_("This invitation was not found."), code="not_found")
    if invitation.status != "pending":
        raise ServiceError(
            _("This invitation was already used, revoked or has expired. Ask for a new one."),
            code="invitation_closed",
        )
    _invitation_for_acceptor(invitation=invitation, user=user)
    organization = invitation.organization
    if Membership.objects.filter(organization=organization, user=user).exists():
        raise ServiceError(_("You are already in this team: an owner can change your role."), code="already_member")
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    _invitation_audit(actor=user, action=AuditAction.INVITATION_ACCEPTED, invitation=invitation)
    if invitation.role in GUARDED_ROLES:
        payload: dict[str, object] = {
            "user_id": user.pk,
            "name": user.full_name or user.display_name,
            "role": invitation.role,
            "invitation_id": invitation.pk,
        }
        request = change_request_submit(
            # The inviter asked for it: someone else must approve.
            user=invitation.invited_by or user,
            organization=organization,
            kind=TEAM_MEMBER_ADD,
            payload=payload,
            summary=_team_member_add_describe(ChangeRequest(kind=TEAM_MEMBER_ADD, payload=payload)),
        )
        if request.status == ChangeRequestStatus.PENDING:
            return request
        return Membership.objects.select_related("organization").get(organization=organization, user=user)
    member = Membership.objects.create(organization=organization, user=user, role=invitation.role)
    _audit_team_change(actor=user, member=member, before=None, after=member.role)
    return member
