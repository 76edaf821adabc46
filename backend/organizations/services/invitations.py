"""Invitations to join an organization's team."""

import secrets
from dataclasses import dataclass
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
from organizations.models import (
    ChangeRequest,
    ChangeRequestStatus,
    Invitation,
    Membership,
)
from organizations.roles import GUARDED_ROLES, Permission, Role
from organizations.selectors import (
    membership_allowed,
)
from organizations.services.change_requests import change_request_submit
from organizations.services.team import TEAM_MEMBER_ADD, _audit_team_change, _team_member_add_describe
from organizations.team_messages import team_message_allowed

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
