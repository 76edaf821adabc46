from django.db.models import Case, QuerySet, Value, When
from django.utils.translation import gettext as _

from accounts.models import User
from common.errors import NotFoundError, PermissionDeniedError
from organizations.models import ChangeRequest, ChangeRequestStatus, EmbedOrigin, Invitation, Membership, Organization
from organizations.roles import GUARDED_ROLES, Permission, Role


def membership_role(*, user: User | None, organization_id: int) -> str | None:
    """``user``'s role in the organization, None for a visitor or an outsider. One query."""
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, organization_id=organization_id).values_list("role", flat=True).first()


def user_organization_ids(*, user: User) -> QuerySet[Membership, int]:
    """The organizations ``user`` belongs to, in any role: a subquery for filters."""
    return Membership.objects.filter(user=user).values_list("organization_id", flat=True)


def user_memberships(*, user: User) -> list[Membership]:
    """``user``'s memberships with their organizations, by organization name. One query."""
    return list(
        Membership.objects.filter(user=user).select_related("organization").order_by("organization__name", "id")
    )


def owned_organizations(*, user: User) -> QuerySet[Organization]:
    return Organization.objects.filter(memberships__user=user, memberships__role=Role.OWNER)


def membership_of(*, user: User, organization_id: int) -> Membership:
    """``user``'s membership of the organization, with it; NotFoundError (404) for anyone else, who is
    not told it exists."""
    membership = (
        Membership.objects.select_related("organization").filter(user=user, organization_id=organization_id).first()
        if 1 <= organization_id < 2**63
        else None
    )
    if membership is None:
        raise NotFoundError(_("Organization not found."), code="not_found")
    return membership


def membership_allowed(*, user: User, organization_id: int, permission: Permission) -> Membership:
    """``user``'s membership if their role has ``permission``: 404 for outsiders, 403 for members without it."""
    membership = membership_of(user=user, organization_id=organization_id)
    if not membership.allows(permission):
        raise PermissionDeniedError(
            _("Only the organization's owners can change its details and its team."), code="not_owner"
        )
    return membership


def team_list(*, organization: Organization) -> list[Membership]:
    """The organization's team, owners first, then by when they joined. One query."""
    order = Case(*(When(role=role, then=Value(rank)) for rank, role in enumerate(Role)))
    return list(
        Membership.objects.filter(organization=organization).select_related("user").order_by(order, "created_at", "id")
    )


def guarded_member_count(*, organization: Organization) -> int:
    """How many owners and treasurers the organization has: two or more, and the two-person rule
    holds (``organizations.services.change_request_submit``)."""
    return Membership.objects.filter(organization=organization, role__in=GUARDED_ROLES).count()


def guarded_members(*, organization: Organization) -> list[Membership]:
    """The owners and treasurers, with their accounts: who is told of every guarded change."""
    return list(Membership.objects.filter(organization=organization, role__in=GUARDED_ROLES).select_related("user"))


RECENT_CHANGE_REQUESTS = 30


def change_requests_list(*, organization: Organization) -> list[ChangeRequest]:
    """The organization's changes under the two-person rule: every one still pending, then the
    most recent others, newest first. Two queries."""
    related = ("requested_by", "decided_by")
    requests = ChangeRequest.objects.filter(organization=organization).select_related(*related)
    pending = list(requests.filter(status=ChangeRequestStatus.PENDING))
    recent = list(requests.exclude(status=ChangeRequestStatus.PENDING)[:RECENT_CHANGE_REQUESTS])
    return pending + recent


RECENT_INVITATIONS = 30


def invitations_list(*, organization: Organization) -> list[Invitation]:
    """The organization's latest invitations, newest first, with who sent them. One query."""
    return list(Invitation.objects.filter(organization=organization).select_related("invited_by")[:RECENT_INVITATIONS])


def invitation_by_token(*, token: str) -> Invitation:
    """The invitation an e-mailed or texted link carries; NotFoundError for any other token."""
    invitation = (
        Invitation.objects.select_related("organization", "invited_by")
        .filter(token_hash=Invitation.hash_token(token.strip()))
        .first()
    )
    if invitation is None:
        raise NotFoundError(_("This invitation was not found."), code="not_found")
    return invitation


def embed_origins_list(*, organization_id: int) -> list[EmbedOrigin]:
    """The websites allowed to show the organization's campaigns in a frame, by origin. One query."""
    return list(EmbedOrigin.objects.filter(organization_id=organization_id).order_by("origin"))
