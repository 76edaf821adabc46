from campaigns.tests.conftest import campaign, organizer, pending_campaign, site_admin

__all__ = ["campaign", "organizer", "pending_campaign", "site_admin"]
