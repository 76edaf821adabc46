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


def test_profiles_and_applications_are_listed(admin_browser):
    OrganizationProfileFactory.create(organization_name="Hope Community Church")
    GrantApplicationFactory.create(grant=Grant.objects.get(title="Clean Water for Communities Fund"))

    assert "Hope Community Church" in admin_browser.get("/admin/grants/organizationprofile/").content.decode()
    assert "Clean Water for Communities Fund" in admin_browser.get("/admin/grants/grantapplication/").content.decode()
