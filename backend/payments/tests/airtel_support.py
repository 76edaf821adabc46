"""An organization with an Airtel Money merchant account and its Airtel app in the simulator, for the
tests of Airtel Money (the ``airtel_church`` fixture)."""

from types import SimpleNamespace

import pytest
from django.conf import settings

from campaigns.tests.factories import CampaignFactory, link_account
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from collection_accounts.tests.factories import CollectionAccountFactory
from organizations.models import Membership
from payments.models import AirtelConnection
from payments.selectors import airtel_callback_url
from simulators.airtel import airtel_app_register

AIRTEL_SECRETS = {"client_id": "church-airtel-id-5d1e", "client_secret": "church-airtel-secret-77aa"}
CALLBACK_KEY = "church-airtel-callback-key-0c9f"
MERCHANT = "+254733000111"
JSON = "application/json"


def airtel_url(account: CollectionAccount) -> str:
    return f"/api/orgs/{account.organization_id}/collection-accounts/{account.pk}/airtel"


def airtel_account(organization, **fields) -> CollectionAccount:
    return CollectionAccountFactory.create(
        organization=organization,
        kind=CollectionAccountKind.AIRTEL_MONEY,
        paybill_number="",
        merchant_msisdn=fields.pop("merchant_msisdn", MERCHANT),
        is_default=False,
        **fields,
    )


def connect(church: SimpleNamespace, make_api_client, *, signed: bool = True) -> AirtelConnection:
    """Set the account's credentials through the API (one owner: applied at once) and register the
    app, with our callback URL, in the simulator."""
    client = make_api_client(signed_in_as=church.owner)
    body = {**AIRTEL_SECRETS, "callback_key": CALLBACK_KEY if signed else ""}
    answer = client.put(church.url, body, content_type=JSON)
    assert answer.status_code == 200, answer.content
    connection = AirtelConnection.objects.get(account=church.account)
    airtel_app_register(
        merchant_msisdn=MERCHANT,
        callback_url=airtel_callback_url(connection),
        callback_key=CALLBACK_KEY if signed else "",
        **AIRTEL_SECRETS,
    )
    church.account.refresh_from_db()
    assert settings.AIRTEL_BASE_URL.endswith("/simulators/airtel")
    return connection


@pytest.fixture
def airtel_church(providers: SimpleNamespace) -> SimpleNamespace:
    """A church campaign whose organization has an Airtel Money merchant account (not connected yet)."""
    campaign = CampaignFactory.create()
    account = airtel_account(campaign.organization)
    link_account(campaign, account)
    owner = Membership.objects.get(organization=campaign.organization).user
    return SimpleNamespace(campaign=campaign, account=account, owner=owner, url=airtel_url(account))
