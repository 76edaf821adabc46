from django.db.models import QuerySet

from accounts.models import User
from organizations.models import Membership, Organization
from organizations.roles import Role


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
