"""The viewers of the campaigns tests and the payment simulators of the payments tests, reused."""

from campaigns.tests.conftest import (
    campaign,
    clients,
    member,
    member_client,
    organizer,
    organizer_client,
    pending_campaign,
    site_admin,
    site_admin_client,
    visitor_client,
)
from payments.tests.support import providers

__all__ = [
    "campaign",
    "clients",
    "member",
    "member_client",
    "organizer",
    "organizer_client",
    "pending_campaign",
    "providers",
    "site_admin",
    "site_admin_client",
    "visitor_client",
]
