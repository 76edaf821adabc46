"""The limits on messages a team member's own action causes: invitations, and the two-person rule's
requests for approval and news of changes applied.

They are not messages "nobody asked for" (notifications/recipient_limits.py): someone in the team
asked for each, and a church setting up its team sends several in its first minutes (the invitations,
a request to approve the paybill, its outcome). So they are not counted against the recipient, but
against the member who caused them, in that organization (``RATE_LIMIT_TEAM_MESSAGES_HOUR``,
``…_DAY``: generous, yet one owner cannot use the team's messages to flood an address). A message past
them is held back, never dropped silently: an invitation's answer says so and gives the inviter its
link to pass on themselves; a held request for approval still waits on the organization's page.
"""

from django.conf import settings

from common import ratelimit
from common.errors import RateLimitedError


def team_message_allowed(*, organization_id: int, member_id: int) -> bool:
    """Count one action's messages against ``member_id``'s limits in the organization; False past them."""
    identifier = f"{organization_id}:{member_id}"
    limits = [
        ratelimit.Limit("team-messages-hour", identifier, settings.RATE_LIMIT_TEAM_MESSAGES_HOUR),
        ratelimit.Limit("team-messages-day", identifier, settings.RATE_LIMIT_TEAM_MESSAGES_DAY),
    ]
    try:
        ratelimit.enforce_all(limits=limits)
    except RateLimitedError:
        return False
    return True
