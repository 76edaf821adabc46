from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from accounts.models import User
from organizations.approvals import change_kind
from organizations.models import (
    ChangeRequest,
    ChangeRequestStatus,
    EmbedOrigin,
    Invitation,
    Membership,
    Organization,
    OrganizationKind,
)
from organizations.roles import GUARDED_ROLES, Permission, Role, role_allows
from organizations.services import InvitationMade


class OrganizationIn(Schema):
    """The organization's details; a missing field of a PATCH stays as it is."""

    name: str = Field(description="1 to 200 characters.")
    kind: OrganizationKind = Field(description="church, ministry, school or group ('personal' is made, never chosen).")
    county: str = Field("", description="One of Kenya's counties, up to 64 characters; optional.")
    town: str = Field("", description="Up to 64 characters; optional.")
    registration_number: str = Field("", description="Up to 64 characters; optional.")


class OrganizationPatchIn(Schema):
    name: str | None = None
    kind: OrganizationKind | None = None
    county: str | None = None
    town: str | None = None
    registration_number: str | None = None
    approved_charity: bool | None = Field(None, description="An approved charity: statements carry a signature line.")
    statement_signatory: str | None = Field(None, description="Who signs its yearly statements; up to 120 characters.")


class OrganizationOut(Schema):
    id: int
    name: str
    kind: OrganizationKind
    county: str
    town: str
    registration_number: str
    approved_charity: bool
    statement_signatory: str
    role: Role = Field(description="The signed-in user's role in it.")
    can_manage_team: bool = Field(description="Owners: change the details and the team.")
    can_create_campaigns: bool = Field(description="Owners: the wizard offers this organization.")
    needs_name: bool = Field(
        description="A personal organization named after its owner: ask the owner to name it (and its kind)."
    )

    @classmethod
    def for_member(cls, membership: Membership) -> "OrganizationOut":
        organization: Organization = membership.organization
        return cls(
            id=organization.pk,
            name=organization.name,
            kind=OrganizationKind(organization.kind),
            county=organization.county,
            town=organization.town,
            registration_number=organization.registration_number,
            approved_charity=organization.approved_charity,
            statement_signatory=organization.statement_signatory,
            role=Role(membership.role),
            can_manage_team=role_allows(membership.role, Permission.MANAGE_TEAM),
            can_create_campaigns=role_allows(membership.role, Permission.EDIT_CAMPAIGNS),
            needs_name=organization.needs_name,
        )


class MemberOut(Schema):
    id: int = Field(description="The membership's id (the path of role changes and removal).")
    name: str
    email: str
    role: Role
    joined_at: datetime
    is_me: bool = Field(description="The signed-in user's own membership.")

    @classmethod
    def for_viewer(cls, membership: Membership, *, viewer_id: int) -> dict[str, object]:
        user = membership.user
        return {
            "id": membership.pk,
            "name": user.full_name or user.display_name,
            "email": user.email,
            "role": membership.role,
            "joined_at": membership.created_at,
            "is_me": user.pk == viewer_id,
        }


class RoleIn(Schema):
    role: Role


def _name(user: User | None) -> str:
    return (user.full_name or user.display_name) if user else ""


class ChangeRequestOut(Schema):
    """A change under the two-person rule, as the signed-in member sees it."""

    id: int
    kind: str = Field(description="What is changed, e.g. team.role_change or team.member_remove.")
    description: str = Field(description="The change in a sentence, in the reader's language.")
    status: ChangeRequestStatus = Field(description="A pending one past expires_at is expired.")
    requested_by: str
    requested_at: datetime
    expires_at: datetime
    decided_by: str = Field(description="Who approved or withdrew it; empty while pending or once expired.")
    decided_at: datetime | None
    can_approve: bool = Field(
        description="Pending, and the reader is another owner or treasurer than the one who asked and the one it raises."
    )
    can_withdraw: bool = Field(description="Pending, and the reader asked for it or is an owner.")

    @classmethod
    def for_member(cls, request: ChangeRequest, *, membership: Membership) -> "ChangeRequestOut":
        status = request.current_status()
        pending = status == ChangeRequestStatus.PENDING
        own = request.requested_by_id == membership.user_id
        return cls(
            id=request.pk,
            kind=request.kind,
            description=change_kind(request.kind).describe(request),
            status=ChangeRequestStatus(status),
            requested_by=_name(request.requested_by),
            requested_at=request.created_at,
            expires_at=request.expires_at,
            decided_by=_name(request.decided_by),
            decided_at=request.decided_at,
            can_approve=pending
            and not own
            and membership.role in GUARDED_ROLES
            and request.beneficiary_id() != membership.user_id,
            can_withdraw=pending and (own or membership.allows(Permission.MANAGE_TEAM)),
        )


InvitationStatus = Literal["pending", "accepted", "revoked", "expired"]


class InvitationIn(Schema):
    """Exactly one of ``email`` and ``phone``."""

    email: str = ""
    phone: str = Field("", description="A Kenyan number: the link goes by SMS.")
    role: Role


class InvitationOut(Schema):
    id: int
    role: Role
    email: str
    phone: str = Field(description="E.164.")
    status: InvitationStatus
    invited_by: str
    created_at: datetime
    expires_at: datetime

    @classmethod
    def from_invitation(cls, invitation: Invitation) -> "InvitationOut":
        return cls(
            id=invitation.pk,
            role=Role(invitation.role),
            email=invitation.email,
            phone=invitation.phone,
            status=invitation.status,  # type: ignore[arg-type]
            invited_by=_name(invitation.invited_by),
            created_at=invitation.created_at,
            expires_at=invitation.expires_at,
        )


class InvitationMadeOut(InvitationOut):
    delivery: Literal["sent", "held"] = Field(
        description="held: the inviter's share of team messages is used up, nothing was sent: pass on invitation_url."
    )
    invitation_url: str = Field(description="The link to pass on, when held; blank when it was sent.")

    @classmethod
    def from_made(cls, made: InvitationMade) -> "InvitationMadeOut":
        return cls(
            **InvitationOut.from_invitation(made.invitation).dict(),
            delivery="held" if made.held else "sent",
            invitation_url=made.link,
        )


class InvitationPreviewOut(Schema):
    """What the link's holder sees before accepting."""

    organization: str
    role: Role
    invited_by: str
    email: str = Field(description="The address it was sent to (accepted only by the account with it).")
    phone: str = Field(description="The number it was sent to (accepted only by an account that verified it).")
    status: InvitationStatus
    expires_at: datetime

    @classmethod
    def from_invitation(cls, invitation: Invitation) -> "InvitationPreviewOut":
        return cls(
            organization=invitation.organization.name,
            role=Role(invitation.role),
            invited_by=_name(invitation.invited_by),
            email=invitation.email,
            phone=invitation.phone,
            status=invitation.status,  # type: ignore[arg-type]
            expires_at=invitation.expires_at,
        )


class InvitationTokenIn(Schema):
    token: str = ""


class InvitationAcceptOut(Schema):
    organization_id: int
    role: Role
    waiting_for_approval: bool = Field(
        description="An owner's or treasurer's place starts once another owner or treasurer approves."
    )


class EmbedOriginIn(Schema):
    origin: str = Field(
        max_length=300,
        description="The website, as https://name.example[:port] (http only for localhost and 127.0.0.1).",
    )


class EmbedOriginOut(Schema):
    id: int
    origin: str = Field(description="As a browser writes it: scheme://host[:port], lower case, no default port.")
    created_at: datetime

    @classmethod
    def from_origin(cls, origin: EmbedOrigin) -> "EmbedOriginOut":
        return cls(id=origin.pk, origin=origin.origin, created_at=origin.created_at)
