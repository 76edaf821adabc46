"""The cached public view of a campaign: fresh after every change that shows on it."""

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from freezegun import freeze_time

from campaigns import caching
from common.cache_control import PRIVATE, PUBLIC
from pledges.services import pledge_create
from pledges.tests.factories import paid_donation


@pytest.fixture
def browser():
    """A first visit: no cookie at all (a phone opening a shared link)."""
    return Client()


def visitor_view(campaign):
    response = Client().get(f"/api/campaigns/{campaign.pk}")
    assert response.status_code == 200
    return response.json()


def test_a_visitor_s_second_read_is_served_without_queries(browser, campaign, django_assert_num_queries):
    first = browser.get(f"/api/campaigns/{campaign.pk}")
    browser.get(f"/campaign/{campaign.pk}")  # its first HTML also reads how the money was used, once

    with django_assert_num_queries(0):
        second = browser.get(f"/api/campaigns/{campaign.pk}")
        page = browser.get(f"/campaign/{campaign.pk}")

    assert second.content == first.content
    assert second["Content-Type"] == "application/json; charset=utf-8"
    assert page.status_code == 200


def test_the_cached_view_is_what_a_visitor_was_shown_before(browser, campaign, member_client):
    cached = browser.get(f"/api/campaigns/{campaign.pk}").json()
    signed_in = member_client.get(f"/api/campaigns/{campaign.pk}").json()

    assert cached["title"] == "Church Roof Repair"
    assert (cached["organizer"], cached["can_edit"], cached["liked_by_me"], cached["like_count"]) == (
        None,
        False,
        False,
        None,
    )
    assert cached == signed_in


def test_a_pledge_shows_at_once_in_the_totals_and_the_list(campaign):
    assert visitor_view(campaign)["pledged_total"] == 0

    pledge_create(
        campaign_id=campaign.pk,
        amount=2500,
        name="Wanjiru",
        email="wanjiru@example.com",
        phone="0712345678",
        is_anonymous=False,
        viewer=None,
        client_ip="203.0.113.9",
    )

    view = visitor_view(campaign)
    assert view["pledged_total"] == 2500
    assert [pledge["name"] for pledge in view["pledges"]] == ["Wanjiru"]


def test_a_paid_donation_shows_at_once_in_the_totals_and_the_list(campaign):
    assert visitor_view(campaign)["raised_total"] == 0

    paid_donation(campaign, name="Otieno", amount=700)

    view = visitor_view(campaign)
    assert (view["raised_total"], view["donor_count"]) == (700, 1)
    assert [donation["name"] for donation in view["donations"]] == ["Otieno"]


def test_an_edit_shows_at_once(campaign, organizer_client):
    visitor_view(campaign)

    organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"title": "New Church Roof"})

    assert visitor_view(campaign)["title"] == "New Church Roof"


def test_a_closed_campaign_shows_as_closed_at_once(campaign, site_admin_client):
    visitor_view(campaign)

    site_admin_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "closed"})

    assert visitor_view(campaign)["status"] == "closed"


def test_a_suspended_campaign_is_gone_at_once(campaign, site_admin_client):
    visitor_view(campaign)

    site_admin_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "suspended", "reason": "Unverified"})

    assert Client().get(f"/api/campaigns/{campaign.pk}").status_code == 404
    assert Client().get(f"/campaign/{campaign.pk}").status_code == 404


def test_the_organizer_s_new_name_shows_at_once(campaign, organizer):
    assert visitor_view(campaign)["organizer_name"] == "Grace Wanjiku"

    organizer.last_name = "Kamau"
    organizer.save()

    assert visitor_view(campaign)["organizer_name"] == "Grace Kamau"


def test_a_sign_in_leaves_the_cached_view_alone(campaign, organizer, django_assert_num_queries):
    visitor_view(campaign)
    organizer.save(update_fields=["last_login"])

    with django_assert_num_queries(0):
        visitor_view(campaign)


@pytest.mark.django_db(transaction=True)
def test_a_view_read_before_a_change_commits_is_not_kept(campaign):
    """A request reading between the change and its commit sees the old rows: the commit renews
    the version once more, so what that request cached is dropped."""
    with transaction.atomic():
        caching.campaign_changed(campaign_id=campaign.pk)
        read_before_commit = caching.public_campaign_get(campaign_id=campaign.pk)

    assert caching.public_campaign_get(campaign_id=campaign.pk).version != read_before_commit.version


def test_a_visitor_without_cookies_may_be_served_by_the_shared_cache(browser, campaign):
    for path in (f"/api/campaigns/{campaign.pk}", f"/campaign/{campaign.pk}", "/api/campaigns?q=roof"):
        response = browser.get(path)

        assert response["Cache-Control"] == PUBLIC, path
        assert "Cookie" in response["Vary"], path


def test_a_request_with_cookies_is_never_kept_by_a_shared_cache(visitor_client, member_client, campaign):
    for client in (visitor_client, member_client):
        assert client.get(f"/api/campaigns/{campaign.pk}")["Cache-Control"] == PRIVATE
        assert client.get("/api/campaigns")["Cache-Control"] == PRIVATE
        assert client.get(f"/campaign/{campaign.pk}")["Cache-Control"] == "no-cache"


def test_hidden_and_missing_campaigns_are_not_cacheable(browser, pending_campaign):
    for path in (f"/campaign/{pending_campaign.pk}", "/campaign/999999"):
        response = browser.get(path)

        assert response.status_code == 404
        assert response["Cache-Control"] == "no-cache"


def test_asking_for_missing_campaigns_stores_nothing_for_them(browser, db):
    for campaign_id in (999999, 2**62):
        assert browser.get(f"/api/campaigns/{campaign_id}").status_code == 404

        assert cache.get(caching._version_key(campaign_id)) is None


def test_a_campaign_s_version_expires_and_the_next_read_renders_afresh(browser, campaign):
    with freeze_time() as clock:
        first = browser.get(f"/api/campaigns/{campaign.pk}").json()
        version = cache.get(caching._version_key(campaign.pk))

        clock.tick(caching.VERSION_SECONDS + 1)

        assert cache.get(caching._version_key(campaign.pk)) is None
        assert browser.get(f"/api/campaigns/{campaign.pk}").json()["title"] == first["title"]
        assert cache.get(caching._version_key(campaign.pk)) not in (None, version)


INDEX_HTML = "<!doctype html><html><head><title>Harambee</title></head><body><div id='root'></div></body></html>"


@pytest.fixture
def built_frontend(settings, tmp_path):
    (tmp_path / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path


def test_the_campaign_s_sub_pages_carry_its_data_for_the_app_to_render(browser, built_frontend, campaign):
    for page in ("donate", "pledge"):
        html = browser.get(f"/campaign/{campaign.pk}/{page}").content.decode()

        assert '<div id="root"></div><script type="application/json" id="page-queries">' in html
