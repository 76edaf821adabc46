import pytest
from django.test import Client

from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory, CampaignLikeFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/campaigns/campaign/"


@pytest.fixture
def admin_browser(site_admin):
    browser = Client()
    browser.force_login(site_admin)
    return browser


def test_the_changelist_filters_and_searches(admin_browser, campaign, pending_campaign):
    CampaignLikeFactory.create(campaign=campaign)
    other = CampaignFactory.create(title="School fees")

    page = admin_browser.get(CHANGELIST, {"status__exact": "pending"}).content.decode()
    assert "Youth Camp" in page and "Church Roof Repair" not in page

    page = admin_browser.get(CHANGELIST, {"q": "grace@example.com"}).content.decode()
    assert "Church Roof Repair" in page and other.title not in page

    for filters in ({"type__exact": "pledging"}, {"category__exact": "church"}, {"o": "9"}):
        assert admin_browser.get(CHANGELIST, filters).status_code == 200


def test_the_activate_and_close_actions_change_the_status(admin_browser, campaign, pending_campaign):
    response = admin_browser.post(
        CHANGELIST, {"action": "activate", "_selected_action": [pending_campaign.pk]}, follow=True
    )
    assert "1 campaign activated." in response.content.decode()

    admin_browser.post(CHANGELIST, {"action": "close", "_selected_action": [campaign.pk, pending_campaign.pk]})

    pending_campaign.refresh_from_db()
    campaign.refresh_from_db()
    assert (campaign.status, pending_campaign.status) == (CampaignStatus.CLOSED, CampaignStatus.CLOSED)


def test_the_suspend_action_asks_for_the_reason_then_suspends_and_lift_reactivates(admin_browser, campaign):
    selected = {"action": "suspend", "_selected_action": [campaign.pk]}

    asked = admin_browser.post(CHANGELIST, selected)
    assert "Why (the organizer sees this)" in asked.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ACTIVE

    admin_browser.post(CHANGELIST, {**selected, "apply": "Suspend", "reason": "Reported as a scam"})
    campaign.refresh_from_db()
    assert (campaign.status, campaign.suspension_reason) == (CampaignStatus.SUSPENDED, "Reported as a scam")

    admin_browser.post(CHANGELIST, {"action": "lift_suspension", "_selected_action": [campaign.pk]})
    campaign.refresh_from_db()
    assert (campaign.status, campaign.suspension_reason) == (CampaignStatus.ACTIVE, "")


def test_the_change_form_opens(admin_browser, campaign):
    assert admin_browser.get(f"{CHANGELIST}{campaign.pk}/change/").status_code == 200
