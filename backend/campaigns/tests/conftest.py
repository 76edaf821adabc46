"""Campaign test fixtures: the four kinds of viewer of spec section 6, each with its own browser."""

import pytest

from accounts.tests.factories import UserFactory
from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_PAYBILL


@pytest.fixture
def organizer(db):
    return UserFactory.create(first_name="Grace", last_name="Wanjiku", email="grace@example.com")


@pytest.fixture
def member(db):
    return UserFactory.create(first_name="Amina", last_name="Hassan")


@pytest.fixture
def site_admin(db):
    return UserFactory.create(first_name="Peter", last_name="Otieno", is_staff=True, is_superuser=True)


@pytest.fixture
def visitor_client(make_api_client):
    return make_api_client()


@pytest.fixture
def member_client(make_api_client, member):
    return make_api_client(signed_in_as=member)


@pytest.fixture
def organizer_client(make_api_client, organizer):
    return make_api_client(signed_in_as=organizer)


@pytest.fixture
def site_admin_client(make_api_client, site_admin):
    return make_api_client(signed_in_as=site_admin)


@pytest.fixture
def campaign(organizer):
    """An active campaign of ``organizer``, paid into its church's connected paybill ``TEST_PAYBILL``."""
    return CampaignFactory.create(
        organizer=organizer, title="Church Roof Repair", category="church", paybill=TEST_PAYBILL
    )


@pytest.fixture
def pending_campaign(organizer):
    return CampaignFactory.create(organizer=organizer, status=CampaignStatus.PENDING, title="Youth Camp")


@pytest.fixture
def clients(visitor_client, member_client, organizer_client, site_admin_client):
    """Each viewer's browser by name, for tests over every viewer."""
    return {
        "visitor": visitor_client,
        "member": member_client,
        "organizer": organizer_client,
        "admin": site_admin_client,
    }
