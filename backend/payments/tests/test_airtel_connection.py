"""An Airtel Money account's API credentials are payment details: with two or more owners and treasurers
they wait for another's approval, travel encrypted in the request, and are never shown again. Until they
are set, the account offers no Airtel push; after, it does."""

import pytest
from django.db import connection as db

from audit.models import AuditAction, AuditEntry
from campaigns.tests.factories import CampaignFactory, link_account
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import CollectionAccountFactory
from organizations.models import ChangeRequest, Membership
from organizations.roles import Role
from payments.models import AirtelConnection
from payments.tests.airtel_support import AIRTEL_SECRETS, CALLBACK_KEY, JSON, airtel_account, airtel_url
from payments.tests.connected_support import member

pytestmark = pytest.mark.django_db

CREDENTIALS = {**AIRTEL_SECRETS, "callback_key": CALLBACK_KEY}


@pytest.fixture
def church():
    campaign = CampaignFactory.create()
    account = airtel_account(campaign.organization)
    link_account(campaign, account)
    owner = Membership.objects.get(organization=campaign.organization).user
    return campaign, account, owner


def _stored_payloads() -> str:
    with db.cursor() as cursor:
        cursor.execute("SELECT payload FROM organizations_changerequest")
        return " ".join(str(row[0]) for row in cursor.fetchall())


def test_credentials_wait_for_the_treasurer_and_are_never_held_in_clear(church, make_api_client):
    campaign, account, owner_user = church
    treasurer = make_api_client(signed_in_as=member(campaign.organization, Role.TREASURER))
    owner = make_api_client(signed_in_as=owner_user)

    asked = owner.put(airtel_url(account), CREDENTIALS, content_type=JSON)

    assert asked.status_code == 202, asked.content
    assert asked.json()["description"] == (
        "Set the Airtel Money API credentials of Airtel Money +254733000111 (callback key, client id, client secret)."
    )
    assert not AirtelConnection.objects.exists()
    assert not CollectionAccount.objects.get(pk=account.pk).offers_airtel_push
    audit = " ".join(str(entry.after) for entry in AuditEntry.objects.all())
    assert not any(secret in asked.content.decode() + _stored_payloads() + audit for secret in CREDENTIALS.values())

    approved = treasurer.post(f"/api/orgs/{campaign.organization_id}/approvals/{asked.json()['id']}/approve")

    assert approved.status_code == 200, approved.content
    connection = AirtelConnection.objects.get()
    assert (connection.client_id, connection.client_secret, connection.callback_key) == tuple(CREDENTIALS.values())
    assert "encrypted" not in ChangeRequest.objects.get().payload
    assert CollectionAccount.objects.get(pk=account.pk).offers_airtel_push
    assert AuditEntry.objects.filter(action=AuditAction.AIRTEL_CREDENTIALS_SET).count() == 1


def test_the_detail_shows_whether_each_is_set_never_a_value(church, make_api_client, django_assert_num_queries):
    _campaign, account, owner_user = church
    owner = make_api_client(signed_in_as=owner_user)
    assert owner.put(airtel_url(account), AIRTEL_SECRETS, content_type=JSON).status_code == 200

    with django_assert_num_queries(5):
        detail = owner.get(airtel_url(account))

    body = detail.json()
    assert (body["credentials_set"], body["callback_signed"]) == (True, False)
    assert body["callback_url"].endswith(
        f"/api/payments/callbacks/airtel/{AirtelConnection.objects.get().callback_token}"
    )
    assert "church-airtel" not in detail.content.decode()


def test_a_new_connection_needs_the_client_id_and_secret(church, make_api_client):
    _campaign, account, owner_user = church

    answer = make_api_client(signed_in_as=owner_user).put(airtel_url(account), {"client_id": "x"}, content_type=JSON)

    assert answer.status_code == 422
    assert set(answer.json()["field_errors"]) == {"client_secret"}


def test_only_an_airtel_money_account_takes_airtel_credentials(church, make_api_client):
    campaign, _account, owner_user = church
    paybill = CollectionAccountFactory.create(organization=campaign.organization, is_default=False)

    answer = make_api_client(signed_in_as=owner_user).put(airtel_url(paybill), AIRTEL_SECRETS, content_type=JSON)

    assert (answer.status_code, answer.json()["code"]) == (400, "not_airtel_account")
