"""The viewers and campaign of the campaigns tests, reused."""

from campaigns.tests.conftest import campaign, organizer, organizer_client, visitor_client

__all__ = ["campaign", "organizer", "organizer_client", "visitor_client"]
