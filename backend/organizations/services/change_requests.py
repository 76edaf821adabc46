"""Change requests: the two-person rule's guarded changes, submitted, approved, withdrawn, expired."""

from collections.abc import Callable
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import NotFoundError, PermissionDeniedError, ServiceError
from organizations import signals
from organizations.approvals import change_kind
from organizations.models import (
    ChangeRequest,
    ChangeRequestStatus,
    Membership,
    Organization,
)
from organizations.roles import GUARDED_ROLES, Permission, Role
from organizations.selectors import (
    guarded_member_count,
    membership_of,
)


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


def change_request_payload_set(*, request_id: int, payload: dict[str, object]) -> None:
    """Replace what a change request holds, for the app whose change kind it is (payments drops the
    credentials a request held once it applies them, and encrypts pending ones again with a new key),
    inside the caller's transaction."""
    ChangeRequest.objects.filter(pk=request_id).update(payload=payload)
