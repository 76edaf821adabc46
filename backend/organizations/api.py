"""The organizations API under /api/orgs/ (``GET /api/organizations`` is the spec's payment status)."""

from django.http import HttpRequest, HttpResponse
from ninja import Router, Status
from ninja.security import django_auth

from accounts.auth import signed_in_user
from common.schemas import ErrorOut
from organizations import selectors, services
from organizations.models import ChangeRequest
from organizations.roles import Permission, Role
from organizations.schemas import (
    ChangeRequestOut,
    EmbedOriginIn,
    EmbedOriginOut,
    InvitationAcceptOut,
    InvitationIn,
    InvitationMadeOut,
    InvitationOut,
    InvitationPreviewOut,
    InvitationTokenIn,
    MemberOut,
    OrganizationIn,
    OrganizationOut,
    OrganizationPatchIn,
    RoleIn,
)

router = Router(tags=["organizations"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


@router.get("/orgs", response={200: list[OrganizationOut], 401: ErrorOut}, auth=django_auth)
def organization_list(request: HttpRequest) -> list[OrganizationOut]:
    """The organizations the signed-in user belongs to, with their role in each, by name."""
    return [OrganizationOut.for_member(m) for m in selectors.user_memberships(user=signed_in_user(request))]


@router.post("/orgs", response={201: OrganizationOut, **ERRORS}, auth=django_auth)
def organization_create(request: HttpRequest, payload: OrganizationIn) -> Status[OrganizationOut]:
    """A new organization; the signed-in user is its first owner."""
    membership = services.organization_create(user=signed_in_user(request), **payload.dict())
    return Status(201, OrganizationOut.for_member(membership))


@router.get("/orgs/{organization_id}", response={200: OrganizationOut, **ERRORS}, auth=django_auth)
def organization_get(request: HttpRequest, organization_id: int) -> OrganizationOut:
    """An organization of the signed-in user; 404 for anyone outside its team."""
    return OrganizationOut.for_member(
        selectors.membership_of(user=signed_in_user(request), organization_id=organization_id)
    )


@router.patch(
    "/orgs/{organization_id}", response={200: OrganizationOut, 202: ChangeRequestOut, **ERRORS}, auth=django_auth
)
def organization_update(
    request: HttpRequest, organization_id: int, payload: OrganizationPatchIn
) -> OrganizationOut | Status[ChangeRequestOut]:
    """Change the organization's details (owners). Givers read its name as the one they pay: a new
    name waits for another owner's or treasurer's approval when the organization has two or more of
    them (202 with the pending request; the other details are saved at once). A personal
    organization is named together with its kind."""
    change = services.organization_update(
        user=signed_in_user(request), organization_id=organization_id, **payload.dict()
    )
    if isinstance(change, ChangeRequest):
        return _waiting(request, organization_id, change)
    return OrganizationOut.for_member(change)


@router.get("/orgs/{organization_id}/members", response={200: list[MemberOut], **ERRORS}, auth=django_auth)
def team_list(request: HttpRequest, organization_id: int) -> list[dict[str, object]]:
    """The team, owners first: every member sees who is in it and in which role."""
    user = signed_in_user(request)
    organization = selectors.membership_of(user=user, organization_id=organization_id).organization
    members = selectors.team_list(organization=organization)
    return [MemberOut.for_viewer(member, viewer_id=user.pk) for member in members]


def _waiting(request: HttpRequest, organization_id: int, change: ChangeRequest) -> Status[ChangeRequestOut]:
    """202: the change waits for a second owner's or treasurer's approval (the two-person rule)."""
    membership = selectors.membership_of(user=signed_in_user(request), organization_id=organization_id)
    return Status(202, ChangeRequestOut.for_member(change, membership=membership))


@router.put(
    "/orgs/{organization_id}/members/{membership_id}",
    response={200: MemberOut, 202: ChangeRequestOut, **ERRORS},
    auth=django_auth,
)
def team_role_change(
    request: HttpRequest, organization_id: int, membership_id: int, payload: RoleIn
) -> dict[str, object] | Status[ChangeRequestOut]:
    """Give a member another role (owners); the last owner keeps theirs (400). Raising to or
    lowering from owner or treasurer needs another owner's or treasurer's approval when the
    organization has two or more of them: 202 with the pending request."""
    user = signed_in_user(request)
    change = services.team_role_change(
        user=user, organization_id=organization_id, membership_id=membership_id, role=payload.role
    )
    if isinstance(change, ChangeRequest):
        return _waiting(request, organization_id, change)
    return MemberOut.for_viewer(change, viewer_id=user.pk)


@router.delete(
    "/orgs/{organization_id}/members/{membership_id}",
    response={202: ChangeRequestOut, 204: None, **ERRORS},
    auth=django_auth,
)
def team_member_remove(
    request: HttpRequest, organization_id: int, membership_id: int
) -> HttpResponse | Status[ChangeRequestOut]:
    """Take someone out of the team (owners), or leave it (anyone); the last owner stays (400).
    Removing an owner or treasurer may wait for a second approval: 202 with the pending request."""
    change = services.team_member_remove(
        user=signed_in_user(request), organization_id=organization_id, membership_id=membership_id
    )
    if change is not None:
        return _waiting(request, organization_id, change)
    return HttpResponse(status=204)


@router.get("/orgs/{organization_id}/approvals", response={200: list[ChangeRequestOut], **ERRORS}, auth=django_auth)
def change_request_list(request: HttpRequest, organization_id: int) -> list[ChangeRequestOut]:
    """The team's changes under the two-person rule: the pending ones, then the recent others."""
    membership = selectors.membership_of(user=signed_in_user(request), organization_id=organization_id)
    requests = selectors.change_requests_list(organization=membership.organization)
    return [ChangeRequestOut.for_member(change, membership=membership) for change in requests]


@router.post(
    "/orgs/{organization_id}/approvals/{change_request_id}/approve",
    response={200: ChangeRequestOut, **ERRORS},
    auth=django_auth,
)
def change_request_approve(request: HttpRequest, organization_id: int, change_request_id: int) -> ChangeRequestOut:
    """Approve another's change (owners and treasurers): it applies now."""
    user = signed_in_user(request)
    # Read first: approving one's own removal leaves no membership to read afterwards.
    membership = selectors.membership_of(user=user, organization_id=organization_id)
    change = services.change_request_approve(
        user=user, organization_id=organization_id, change_request_id=change_request_id
    )
    return ChangeRequestOut.for_member(change, membership=membership)


@router.post(
    "/orgs/{organization_id}/approvals/{change_request_id}/withdraw",
    response={200: ChangeRequestOut, **ERRORS},
    auth=django_auth,
)
def change_request_withdraw(request: HttpRequest, organization_id: int, change_request_id: int) -> ChangeRequestOut:
    """Take back a pending change (whoever asked for it, or an owner)."""
    user = signed_in_user(request)
    # Read first: approving one's own removal leaves no membership to read afterwards.
    membership = selectors.membership_of(user=user, organization_id=organization_id)
    change = services.change_request_withdraw(
        user=user, organization_id=organization_id, change_request_id=change_request_id
    )
    return ChangeRequestOut.for_member(change, membership=membership)


@router.get("/orgs/{organization_id}/invitations", response={200: list[InvitationOut], **ERRORS}, auth=django_auth)
def invitation_list(request: HttpRequest, organization_id: int) -> list[InvitationOut]:
    """The latest invitations (owners: they hold the invitees' addresses)."""
    membership = selectors.membership_allowed(
        user=signed_in_user(request), organization_id=organization_id, permission=Permission.MANAGE_TEAM
    )
    return [InvitationOut.from_invitation(i) for i in selectors.invitations_list(organization=membership.organization)]


@router.post("/orgs/{organization_id}/invitations", response={201: InvitationMadeOut, **ERRORS}, auth=django_auth)
def invitation_create(request: HttpRequest, organization_id: int, payload: InvitationIn) -> Status[InvitationMadeOut]:
    """Invite someone by e-mail or Kenyan phone (owners): a link valid 7 days, used once. Past the
    inviter's share of team messages it is not sent (``delivery`` "held"): the answer gives the link."""
    made = services.invitation_create(user=signed_in_user(request), organization_id=organization_id, **payload.dict())
    return Status(201, InvitationMadeOut.from_made(made))


@router.delete("/orgs/{organization_id}/invitations/{invitation_id}", response={204: None, **ERRORS}, auth=django_auth)
def invitation_revoke(request: HttpRequest, organization_id: int, invitation_id: int) -> HttpResponse:
    """Take back an invitation not yet accepted (owners)."""
    services.invitation_revoke(
        user=signed_in_user(request), organization_id=organization_id, invitation_id=invitation_id
    )
    return HttpResponse(status=204)


# The token travels in the query (GET) or the body, never in the path, which the access log records.
@router.get("/invitations", response={200: InvitationPreviewOut, 404: ErrorOut})
def invitation_preview(request: HttpRequest, token: str) -> InvitationPreviewOut:
    """Who invites to what, for the holder of the link (signed in or not)."""
    return InvitationPreviewOut.from_invitation(selectors.invitation_by_token(token=token))


@router.post(
    "/invitations/accept", response={200: InvitationAcceptOut, 202: InvitationAcceptOut, **ERRORS}, auth=django_auth
)
def invitation_accept(request: HttpRequest, payload: InvitationTokenIn) -> Status[InvitationAcceptOut]:
    """Join the team (the invited e-mail's account, or one that verified the invited number): 200,
    or 202 while an owner's or treasurer's place waits for a second approval."""
    joined = services.invitation_accept(user=signed_in_user(request), token=payload.token)
    waiting = isinstance(joined, ChangeRequest)
    role = joined.payload["role"] if isinstance(joined, ChangeRequest) else joined.role
    answer = InvitationAcceptOut(
        organization_id=joined.organization_id, role=Role(str(role)), waiting_for_approval=waiting
    )
    return Status(202 if waiting else 200, answer)


# Websites allowed to show the organization's campaigns in a frame (config/embed.py): the team sees
# them (the campaign's share panel gives the embed's code), owners add and remove them.


@router.get("/orgs/{organization_id}/embed-origins", response={200: list[EmbedOriginOut], **ERRORS}, auth=django_auth)
def embed_origin_list(request: HttpRequest, organization_id: int) -> list[EmbedOriginOut]:
    """The websites that may show the organization's campaigns' embed (the team)."""
    membership = selectors.membership_of(user=signed_in_user(request), organization_id=organization_id)
    return [
        EmbedOriginOut.from_origin(o) for o in selectors.embed_origins_list(organization_id=membership.organization_id)
    ]


@router.post("/orgs/{organization_id}/embed-origins", response={201: EmbedOriginOut, **ERRORS}, auth=django_auth)
def embed_origin_add(request: HttpRequest, organization_id: int, payload: EmbedOriginIn) -> Status[EmbedOriginOut]:
    """Allow a website to show the organization's campaigns' embed (owners); audited."""
    added = services.embed_origin_add(
        user=signed_in_user(request), organization_id=organization_id, origin=payload.origin
    )
    return Status(201, EmbedOriginOut.from_origin(added))


@router.delete("/orgs/{organization_id}/embed-origins/{origin_id}", response={204: None, **ERRORS}, auth=django_auth)
def embed_origin_remove(request: HttpRequest, organization_id: int, origin_id: int) -> HttpResponse:
    """Stop a website showing the organization's campaigns' embed (owners); audited."""
    services.embed_origin_remove(user=signed_in_user(request), organization_id=organization_id, origin_id=origin_id)
    return HttpResponse(status=204)
