import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from grants.models import Grant
from grants.tests.factories import GrantApplicationFactory, OrganizationProfileFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_browser():
    browser = Client()
    browser.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    return browser


def test_operators_find_and_add_grants_in_the_admin(admin_browser):
    page = admin_browser.get("/admin/grants/grant/", {"q": "borehole"}).content.decode()
    assert "Clean Water for Communities Fund" in page and "Rural Literacy" not in page

    answer = admin_browser.post(
        "/admin/grants/grant/add/",
        {
            "title": "Church Roof Fund",
            "organization": "Roofs for All",
            "category": "faith_based",
            "amount_usd": "30000",
            "location": "Kenya",
            "deadline": "2027-05-01",
            "description": "Roofs for rural churches.",
            "website": "https://example.org/roofs",
        },
    )

    assert answer.status_code == 302
    assert Grant.objects.filter(title="Church Roof Fund", amount_usd=30_000).exists()


def test_staff_record_regions_focus_areas_amount_range_and_application_url(admin_browser):
    answer = admin_browser.post(
        "/admin/grants/grant/add/",
        {
            "title": "Youth Skills Fund",
            "organization": "Vijana Trust",
            "category": "youth",
            "amount_usd": "40000",
            "amount_min_usd": "5000",
            "amount_max_usd": "40000",
            "location": "Kenya",
            "regions": "Nairobi, Coast",
            "focus_areas": "youth, skills",
            "deadline": "2027-05-01",
            "description": "Vocational training.",
            "website": "https://vijana.example.com",
            "application_url": "vijana.example.com/apply",
        },
    )

    assert answer.status_code == 302, answer.content.decode()[:2000]
    grant = Grant.objects.get(title="Youth Skills Fund")
    assert (grant.regions, grant.focus_areas, grant.amount_min_usd, grant.amount_max_usd) == (
        "Nairobi, Coast",
        "youth, skills",
        5_000,
        40_000,
    )
    assert grant.apply_url == "https://vijana.example.com/apply"


def test_staff_retire_grants_which_leave_the_search_and_keep_their_applications(admin_browser):
    grant = Grant.objects.get(title="Clean Water for Communities Fund")
    GrantApplicationFactory.create(grant=grant)

    admin_browser.post("/admin/grants/grant/", {"action": "retire", "_selected_action": [grant.pk]})

    grant.refresh_from_db()
    assert grant.retired_at is not None
    assert grant not in Grant.objects.current()
    assert grant.applications.count() == 1


def test_profiles_and_applications_are_listed(admin_browser):
    OrganizationProfileFactory.create(organization_name="Hope Community Church")
    GrantApplicationFactory.create(grant=Grant.objects.get(title="Clean Water for Communities Fund"))

    assert "Hope Community Church" in admin_browser.get("/admin/grants/organizationprofile/").content.decode()
    assert "Clean Water for Communities Fund" in admin_browser.get("/admin/grants/grantapplication/").content.decode()
