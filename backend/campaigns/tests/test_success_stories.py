"""The landing page's success stories: real campaigns whose owners agreed to be featured, with their
real totals; none invented, and none at all while no campaign qualifies."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def stories(client) -> list[tuple[str, int]]:
    return [(story["title"], story["raised_total"]) for story in client.get("/api/success-stories").json()]


def test_no_stories_until_an_owner_agrees_to_be_featured(visitor_client):
    CampaignFactory.create(raised_total=500_000)

    assert stories(visitor_client) == []


def test_the_three_best_funded_featured_campaigns_running_ended_or_closed_with_their_real_totals(visitor_client):
    CampaignFactory.create(title="Roof", may_be_featured=True, raised_total=120_000)
    CampaignFactory.create(title="Borehole", may_be_featured=True, raised_total=860_000, status=CampaignStatus.CLOSED)
    CampaignFactory.create(
        title="Fees", may_be_featured=True, raised_total=375_000, end_date=timezone.localdate() - timedelta(days=3)
    )
    CampaignFactory.create(title="Small", may_be_featured=True, raised_total=1_000)
    CampaignFactory.create(title="Unpaid", may_be_featured=True, raised_total=0)
    CampaignFactory.create(title="Held", may_be_featured=True, raised_total=9_000_000, status=CampaignStatus.SUSPENDED)
    CampaignFactory.create(title="Unactivated", may_be_featured=True, raised_total=9_000_000, status="pending")

    answer = visitor_client.get("/api/success-stories").json()

    assert stories(visitor_client) == [("Borehole", 860_000), ("Fees", 375_000), ("Roof", 120_000)]
    assert set(answer[0]) == {
        "id",
        "title",
        "organization_name",
        "category_label",
        "raised_total",
        "goal",
        "cover_image_url",
    }


def test_an_owner_agrees_on_the_edit_form(organizer_client, campaign):
    type(campaign).objects.filter(pk=campaign.pk).update(raised_total=40_000)

    response = organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"may_be_featured": True})

    assert response.json()["may_be_featured"] is True
    assert stories(organizer_client) == [("Church Roof Repair", 40_000)]
