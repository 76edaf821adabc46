"""What each role in an organization may do: one table, read by every check of the server.

| Permission          | What it covers                                                        | owner | treasurer | usher | viewer |
|---------------------|-----------------------------------------------------------------------|:-----:|:---------:|:-----:|:------:|
| SEE_UNPUBLISHED     | the organization's pending and closed campaigns, the dashboard        |   ✓   |     ✓     |   ✓   |   ✓    |
| SEE_PLEDGES         | Pledge Management read-only: givers' details, summary, payments of a   |   ✓   |     ✓     |       |   ✓    |
|                     | pledge, unmatched money, analytics, reminder settings                  |       |           |       |        |
| MANAGE_PLEDGES      | confirm, record and reverse payments, assign unmatched money, remind,  |   ✓   |     ✓     |       |        |
|                     | change reminder settings, export CSV                                   |       |           |       |        |
| EDIT_CAMPAIGNS      | create and edit campaigns, pay their activation fee                    |   ✓   |           |       |        |
| MANAGE_TEAM         | the organization's details, its team and invitations                   |   ✓   |           |       |        |
| MANAGE_PAYMENT_     | the organization's collection accounts (paybill, till, bank, cash) and |   ✓   |     ✓     |       |        |
| DETAILS             | the account-number keywords that are not for Harambee                  |       |           |       |        |
| RUN_EVENTS          | create a campaign's events (a harambee service), open and close them   |   ✓   |           |       |        |
| MODERATE_LIVE_FEED  | hide an entry from the big screen's feed (it stays in the books)       |   ✓   |     ✓     |   ✓   |        |
| RECORD_AT_DESK      | the ushers' desk: pledge cards and gifts (cash, M-Pesa) at an event    |   ✓   |     ✓     |   ✓   |        |
| RECONCILE_CASH      | count an event's cash per usher against the desk, sign the count off,  |   ✓   |     ✓     |       |        |
|                     | withdraw a sign-off                                                    |       |           |       |        |
| RECORD_SPENDING     | record what the church paid from a campaign's money, approve another's |   ✓   |     ✓     |       |        |
|                     | line (never one's own), reverse a line, progress updates               |       |           |       |        |
| SEND_STATEMENTS     | send every giver of a year their statement of giving (giving app)      |   ✓   |     ✓     |       |        |

Ushers see the organization's campaigns, record pledges and gifts at its events' desk and moderate
the big screen's feed during an event. Admins (staff) may do everything a role allows (see
``Campaign.allows``); an outsider and a visitor nothing beyond the public pages.
"""

from enum import StrEnum

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    TREASURER = "treasurer", _("Treasurer")
    USHER = "usher", _("Usher")
    VIEWER = "viewer", _("Viewer")


class Permission(StrEnum):
    SEE_UNPUBLISHED = "see_unpublished"
    SEE_PLEDGES = "see_pledges"
    MANAGE_PLEDGES = "manage_pledges"
    EDIT_CAMPAIGNS = "edit_campaigns"
    MANAGE_TEAM = "manage_team"
    MANAGE_PAYMENT_DETAILS = "manage_payment_details"
    RUN_EVENTS = "run_events"
    MODERATE_LIVE_FEED = "moderate_live_feed"
    RECORD_AT_DESK = "record_at_desk"
    RECONCILE_CASH = "reconcile_cash"
    RECORD_SPENDING = "record_spending"
    SEND_STATEMENTS = "send_statements"


ROLE_PERMISSIONS: dict[Role, frozenset[Permission]] = {
    Role.OWNER: frozenset(Permission),
    Role.TREASURER: frozenset(
        {
            Permission.SEE_UNPUBLISHED,
            Permission.SEE_PLEDGES,
            Permission.MANAGE_PLEDGES,
            Permission.MANAGE_PAYMENT_DETAILS,
            Permission.MODERATE_LIVE_FEED,
            Permission.RECORD_AT_DESK,
            Permission.RECONCILE_CASH,
            Permission.RECORD_SPENDING,
            Permission.SEND_STATEMENTS,
        }
    ),
    Role.USHER: frozenset({Permission.SEE_UNPUBLISHED, Permission.MODERATE_LIVE_FEED, Permission.RECORD_AT_DESK}),
    Role.VIEWER: frozenset({Permission.SEE_UNPUBLISHED, Permission.SEE_PLEDGES}),
}

# Adding, raising to or removing one of these roles needs a second person's approval once the
# organization has two or more people holding them (the two-person rule).
GUARDED_ROLES = frozenset({Role.OWNER, Role.TREASURER})


def role_allows(role: str | None, permission: Permission) -> bool:
    """Whether a member with ``role`` (None: not a member) may do what ``permission`` covers."""
    return role is not None and permission in ROLE_PERMISSIONS[Role(role)]
