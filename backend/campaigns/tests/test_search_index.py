import pytest
from django.db import connection

from campaigns.models import Campaign, SearchText
from campaigns.tests.factories import CampaignFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigram index exists on PostgreSQL only"),
]


def test_the_search_filter_matches_the_trigram_index_expression():
    """selectors.campaign_list searches with this filter; bench/campaigns_search.py checks the full query."""
    CampaignFactory.create(title="Church Roof Repair")
    search = Campaign.objects.alias(search=SearchText("title", "description")).filter(search__icontains="roof")

    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a test table is small enough to read whole
        plan = search.explain()

    assert "campaigns_campaign_search_trgm" in plan, plan
    assert search.count() == 1
