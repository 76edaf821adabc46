"""The viewers and campaign of the campaigns tests, and the SMS gateway of the notifications tests, reused."""

from campaigns.tests.conftest import campaign, organizer, organizer_client, visitor_client
from notifications.tests.conftest import providers, sms_gateway

__all__ = ["campaign", "organizer", "organizer_client", "providers", "sms_gateway", "visitor_client"]
