from datetime import datetime

from ninja import Field, Schema

from organizations.models import Membership, Organization, OrganizationKind
from organizations.roles import Permission, Role, role_allows


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


class OrganizationOut(Schema):
    id: int
    name: str
    kind: OrganizationKind
    county: str
    town: str
    registration_number: str
    role: Role = Field(description="The signed-in user's role in it.")
    can_manage_team: bool = Field(description="Owners: change the details and the team.")
    can_create_campaigns: bool = Field(description="Owners: the wizard offers this organization.")

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
            role=Role(membership.role),
            can_manage_team=role_allows(membership.role, Permission.MANAGE_TEAM),
            can_create_campaigns=role_allows(membership.role, Permission.EDIT_CAMPAIGNS),
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
