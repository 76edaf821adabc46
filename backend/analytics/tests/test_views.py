"""Counting views of campaign pages: POST /api/campaigns/{id}/views."""

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from analytics.models import CampaignDailyVisits

pytestmark = pytest.mark.django_db

PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131.0 Mobile"
LAPTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0"


def view(client, campaign, user_agent=PHONE, address="196.201.214.10"):
    return client.post(f"/api/campaigns/{campaign.pk}/views", HTTP_USER_AGENT=user_agent, REMOTE_ADDR=address)


def visits(campaign):
    return list(CampaignDailyVisits.objects.filter(campaign=campaign).values_list("day", "views", "visitors"))


def test_a_view_is_counted_for_today_with_one_visitor_and_no_cookie(visitor_client, campaign):
    answer = view(visitor_client, campaign)

    assert (answer.status_code, answer.content) == (204, b"")
    assert not answer.cookies
    assert visits(campaign) == [(timezone.localdate(), 1, 1)]


def test_the_same_visitor_again_adds_a_view_but_not_a_visitor(visitor_client, make_api_client, campaign):
    view(visitor_client, campaign)
    view(visitor_client, campaign)
    # Another browser on the same phone and network is the same visitor: no cookie tells them apart.
    view(make_api_client(), campaign)

    assert visits(campaign) == [(timezone.localdate(), 3, 1)]


def test_another_browser_or_address_is_another_visitor(visitor_client, campaign):
    view(visitor_client, campaign)
    view(visitor_client, campaign, user_agent=LAPTOP)
    view(visitor_client, campaign, address="41.90.64.7")

    assert visits(campaign) == [(timezone.localdate(), 3, 3)]


def test_a_visitor_is_counted_again_on_another_day(visitor_client, campaign, monkeypatch):
    today = timezone.localdate()
    view(visitor_client, campaign)
    monkeypatch.setattr("analytics.services.timezone.localdate", lambda: today + timedelta(days=1))

    view(visitor_client, campaign)

    assert visits(campaign) == [(today, 1, 1), (today + timedelta(days=1), 1, 1)]


def test_each_campaign_counts_its_own_visitors(visitor_client, campaign, organizer):
    from campaigns.tests.factories import CampaignFactory

    other = CampaignFactory.create(organizer=organizer)
    view(visitor_client, campaign)
    view(visitor_client, other)

    assert (visits(campaign), visits(other)) == ([(timezone.localdate(), 1, 1)], [(timezone.localdate(), 1, 1)])


def test_the_organizers_and_admins_own_views_do_not_count(organizer_client, site_admin_client, member_client, campaign):
    assert view(organizer_client, campaign).status_code == 204
    assert view(site_admin_client, campaign).status_code == 204
    assert visits(campaign) == []

    view(member_client, campaign)

    assert visits(campaign) == [(timezone.localdate(), 1, 1)]


def test_unknown_and_hidden_campaigns_are_not_found(visitor_client, pending_campaign):
    assert view(visitor_client, pending_campaign).status_code == 404
    assert visitor_client.post("/api/campaigns/999999/views").status_code == 404
    assert not CampaignDailyVisits.objects.exists()


def test_a_view_needs_the_csrf_token_like_every_unsafe_call(campaign):
    answer = Client(enforce_csrf_checks=True).post(f"/api/campaigns/{campaign.pk}/views")

    assert answer.status_code == 403
    assert visits(campaign) == []


@override_settings(RATE_LIMIT_CAMPAIGN_VIEW=(3, 600))
def test_one_address_cannot_inflate_the_figures(visitor_client, campaign):
    answers = [view(visitor_client, campaign, user_agent=f"Bot {n}").status_code for n in range(5)]
    # Another address is not held back.
    other = view(visitor_client, campaign, address="41.90.64.7").status_code

    assert (answers, other) == ([204, 204, 204, 429, 429], 204)
    assert visits(campaign) == [(timezone.localdate(), 4, 4)]


def test_a_view_reads_the_campaign_and_writes_one_row(visitor_client, campaign, django_assert_num_queries):
    view(visitor_client, campaign)

    # The campaign, the address's counter (one upsert; in Redis when there is one), then one upsert of the
    # visits (the cache holds the salt and the visitor hashes).
    with django_assert_num_queries(3):
        view(visitor_client, campaign, user_agent=LAPTOP)

    assert visits(campaign) == [(timezone.localdate(), 2, 2)]
