"""An organization with its own paybill (600100) and Daraja app in the simulator, for the tests of
connected M-Pesa (the ``church`` fixture, registered in conftest.py)."""

from types import SimpleNamespace

import httpx
import pytest

from accounts.models import User
from accounts.tests.factories import UserFactory
from campaigns.tests.factories import CampaignFactory, link_account
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import CollectionAccountFactory
from organizations.models import Membership
from simulators.daraja import daraja_app_register

SECRETS = {"consumer_key": "church-key-7f3a", "consumer_secret": "church-secret-9b2c", "passkey": "church-passkey-41de"}
CREDENTIALS = {**SECRETS, "nominated_number": "0722000111"}
JSON = "application/json"


@pytest.fixture
def church(providers: SimpleNamespace) -> SimpleNamespace:
    """A church campaign whose organization has paybill 600100, with its own Daraja app."""
    campaign = CampaignFactory.create()
    account = CollectionAccountFactory.create(organization=campaign.organization, paybill_number="600100")
    link_account(campaign, account)
    daraja_app_register(shortcode="600100", **SECRETS)
    owner = Membership.objects.get(organization=campaign.organization).user
    return SimpleNamespace(campaign=campaign, account=account, owner=owner, url=url(account))


def url(account: CollectionAccount, action: str = "") -> str:
    base = f"/api/orgs/{account.organization_id}/collection-accounts/{account.pk}/mpesa"
    return f"{base}/{action}" if action else base


def church_bank_account(organization) -> CollectionAccount:
    """The organization's bank account (KCB 1180012345) beside its paybill, not its default one."""
    return CollectionAccountFactory.create(
        organization=organization,
        kind="bank",
        paybill_number="",
        bank_name="KCB",
        account_name="St. Mark's",
        account_number="1180012345",
        is_default=False,
    )


def member(organization, role) -> User:
    return Membership.objects.create(organization=organization, user=UserFactory.create(), role=role).user


def connected(church, make_api_client):
    client = make_api_client(signed_in_as=church.owner)
    assert client.put(church.url, CREDENTIALS, content_type=JSON).status_code == 200
    answer = client.post(church.url + "/connect", {})
    assert answer.status_code == 200, answer.content
    return client


def pay_paybill(providers, **body) -> str:
    answer = httpx.post(
        f"{providers.url}/simulators/daraja/c2b/simulate", json={"MSISDN": "254708374149", **body}, timeout=5
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["TransID"]
