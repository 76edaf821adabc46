"""Writes of organizations: their details, the two-person rule's change requests, the team and invitations.

Modules: ``core`` (an organization and its details), ``change_requests`` (submitting, approving,
withdrawing and expiring guarded changes), ``team`` (the team's own guarded changes),
``invitations`` and ``websites`` (the websites that may frame the campaigns' embed). Every public name is re-exported here: ``from organizations.services import X``.
"""

from organizations.services.change_requests import (
    change_request_approve,
    change_request_approve_as_admin,
    change_request_payload_set,
    change_request_submit,
    change_request_withdraw,
    change_requests_expire,
)
from organizations.services.core import (
    DETAIL_MAX_LENGTHS,
    ORGANIZATION_RENAME,
    organization_choose_for_campaign,
    organization_create,
    organization_personal_create,
    organization_update,
)
from organizations.services.invitations import InvitationMade, invitation_accept, invitation_create, invitation_revoke
from organizations.services.team import (
    TEAM_MEMBER_ADD,
    TEAM_MEMBER_REMOVE,
    TEAM_ROLE_CHANGE,
    TeamChange,
    register_team_change_kinds,
    team_member_remove,
    team_role_change,
)
from organizations.services.websites import MAX_EMBED_ORIGINS, embed_origin_add, embed_origin_remove

__all__ = [
    "DETAIL_MAX_LENGTHS",
    "MAX_EMBED_ORIGINS",
    "ORGANIZATION_RENAME",
    "TEAM_MEMBER_ADD",
    "TEAM_MEMBER_REMOVE",
    "TEAM_ROLE_CHANGE",
    "InvitationMade",
    "TeamChange",
    "change_request_approve",
    "change_request_approve_as_admin",
    "change_request_payload_set",
    "change_request_submit",
    "change_request_withdraw",
    "change_requests_expire",
    "embed_origin_add",
    "embed_origin_remove",
    "invitation_accept",
    "invitation_create",
    "invitation_revoke",
    "organization_choose_for_campaign",
    "organization_create",
    "organization_personal_create",
    "organization_update",
    "register_team_change_kinds",
    "team_member_remove",
    "team_role_change",
]
