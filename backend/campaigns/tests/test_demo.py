import pytest

from accounts.demo import demo_users_load
from campaigns.demo import DEMO_CAMPAIGNS, demo_campaigns_load
from campaigns.models import Campaign, CampaignStatus, CampaignType

pytestmark = pytest.mark.django_db


def test_demo_campaigns_are_a_dozen_active_pledging_ones_and_one_pending():
    demo_users_load()

    demo_campaigns_load()

    active = Campaign.objects.filter(status=CampaignStatus.ACTIVE, type=CampaignType.PLEDGING)
    assert active.count() == len(DEMO_CAMPAIGNS) == 12
    pending = Campaign.objects.get(status=CampaignStatus.PENDING)
    assert pending.organizer.email == "organizer@harambee.local"
    assert active.values("category").distinct().count() >= 6
    # Totals come only from pledges and payments, never from the demo's own numbers.
    assert not active.filter(pledged_total__gt=0).exists()
    for campaign in Campaign.objects.all():
        campaign.full_clean()
        # Paid into its organization's own accounts; a personal number stays only as a legacy option.
        assert 1 <= campaign.account_links.count() + len(campaign.payment_options) <= 3
        assert all(option["method"] == "mpesa" for option in campaign.payment_options)
        assert all(a.organization_id == campaign.organization_id for a in campaign.collection_accounts.all())
        assert 30 <= campaign.days_left <= 90


def test_demo_campaigns_load_twice_without_duplicates():
    demo_users_load()

    demo_campaigns_load()
    demo_campaigns_load()

    assert Campaign.objects.count() == 13


def test_demo_covers_are_shipped(settings):
    from django.contrib.staticfiles import finders

    for fields in DEMO_CAMPAIGNS:
        assert finders.find(f"campaigns/covers/{fields['cover']}"), fields["cover"]
    assert finders.find("campaigns/covers/default.svg")
