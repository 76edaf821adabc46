"""The viewers and campaign of the campaigns tests, reused."""

from campaigns.tests.conftest import (
    campaign,
    member,
    member_client,
    organizer,
    organizer_client,
    pending_campaign,
    visitor_client,
)

__all__ = [
    "campaign",
    "member",
    "member_client",
    "organizer",
    "organizer_client",
    "pending_campaign",
    "visitor_client",
]
