import pytest

from accounts.tests.factories import UserFactory
from campaigns.tests.factories import CampaignFactory
from collection_accounts.models import AccountKeyword, CollectionAccount
from collection_accounts.tests.factories import TEST_PAYBILL
from organizations.models import Membership
from organizations.roles import Role
from pledges.tests.factories import make_pledge


@pytest.fixture
def campaign(db):
    """A church's campaign paid into its connected paybill, which also takes its tithes (TITHE)."""
    campaign = CampaignFactory.create(organizer=UserFactory.create(), paybill=TEST_PAYBILL, title="Church Roof")
    AccountKeyword.objects.create(organization=campaign.organization, keyword="TITHE")
    return campaign


@pytest.fixture
def paybill(campaign):
    return CollectionAccount.objects.get(organization=campaign.organization, paybill_number=TEST_PAYBILL)


@pytest.fixture
def treasurer(campaign):
    user = UserFactory.create()
    Membership.objects.create(organization=campaign.organization, user=user, role=Role.TREASURER)
    return user


@pytest.fixture
def treasurer_client(make_api_client, treasurer):
    return make_api_client(signed_in_as=treasurer)


@pytest.fixture
def pledge(campaign):
    return make_pledge(campaign, amount=10_000)
