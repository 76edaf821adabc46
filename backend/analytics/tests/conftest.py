"""The viewers of the campaigns tests, reused."""

from campaigns.tests.conftest import (
    campaign,
    member,
    member_client,
    organizer,
    organizer_client,
    pending_campaign,
    site_admin,
    site_admin_client,
    visitor_client,
)

__all__ = [
    "campaign",
    "member",
    "member_client",
    "organizer",
    "organizer_client",
    "pending_campaign",
    "site_admin",
    "site_admin_client",
    "visitor_client",
]
