"""An M-Pesa connection's credentials and its Connect are payment details: with two or more owners
and treasurers they wait for another's approval. A pending request holds the new credentials only
encrypted, never shows them, and drops even the ciphertext once it applies."""

import pytest
from django.db import connection as db

from audit.models import AuditEntry
from organizations.models import ChangeRequest
from organizations.roles import Role
from payments.models import MpesaConnection
from payments.tests.connected_support import CREDENTIALS, JSON, SECRETS, connected, member
from simulators.models import SimulatedC2BRegistration

pytestmark = pytest.mark.django_db(transaction=True)


def approve(client, church, request_id):
    return client.post(f"/api/orgs/{church.campaign.organization_id}/approvals/{request_id}/approve")


def stored_payloads() -> str:
    with db.cursor() as cursor:
        cursor.execute("SELECT payload FROM organizations_changerequest")
        return " ".join(str(row[0]) for row in cursor.fetchall())


def in_clear(text: str) -> list[str]:
    return [name for name, secret in SECRETS.items() if secret in text]


def test_credentials_wait_for_the_treasurer_and_are_never_held_in_clear(church, make_api_client):
    treasurer = make_api_client(signed_in_as=member(church.campaign.organization, Role.TREASURER))
    owner = make_api_client(signed_in_as=church.owner)

    asked = owner.put(church.url, CREDENTIALS, content_type=JSON)

    assert asked.status_code == 202, asked.content
    assert asked.json()["description"] == (
        "Set the M-Pesa API credentials of M-Pesa paybill 600100 "
        "(consumer key, consumer secret, nominated number, passkey)."
    )
    assert not MpesaConnection.objects.exists()
    listed = treasurer.get(f"/api/orgs/{church.campaign.organization_id}/approvals")
    audit = " ".join(str(entry.after) for entry in AuditEntry.objects.all())
    assert in_clear(asked.content.decode() + listed.content.decode() + stored_payloads() + audit) == []

    approved = approve(treasurer, church, asked.json()["id"])

    assert approved.status_code == 200, approved.content
    connection = MpesaConnection.objects.get()
    assert (connection.consumer_secret, connection.passkey) == (SECRETS["consumer_secret"], SECRETS["passkey"])
    assert "encrypted" not in ChangeRequest.objects.get().payload


def test_connect_waits_and_registers_with_daraja_when_approved(church, make_api_client):
    owner = make_api_client(signed_in_as=church.owner)
    assert owner.put(church.url, CREDENTIALS, content_type=JSON).status_code == 200  # one guardian: at once
    treasurer = make_api_client(signed_in_as=member(church.campaign.organization, Role.TREASURER))

    asked = treasurer.post(church.url + "/connect", {})

    assert asked.status_code == 202
    assert asked.json()["description"] == (
        "Connect M-Pesa paybill 600100 to M-Pesa's API: its payments reach Harambee and PIN prompts go to it."
    )
    assert not SimulatedC2BRegistration.objects.exists()
    church.account.refresh_from_db()
    assert not church.account.offers_stk_push

    assert approve(owner, church, asked.json()["id"]).status_code == 200
    assert SimulatedC2BRegistration.objects.filter(shortcode="600100").exists()
    church.account.refresh_from_db()
    assert church.account.offers_stk_push


def test_a_connect_daraja_refuses_stays_pending_with_the_reason(church, make_api_client):
    owner = make_api_client(signed_in_as=church.owner)
    assert owner.put(church.url, {**CREDENTIALS, "consumer_secret": "wrong"}, content_type=JSON).status_code == 200
    treasurer = make_api_client(signed_in_as=member(church.campaign.organization, Role.TREASURER))
    request_id = treasurer.post(church.url + "/connect", {}).json()["id"]

    answer = approve(owner, church, request_id)

    assert (answer.status_code, answer.json()["code"]) == (400, "mpesa_wrong_credentials")
    assert ChangeRequest.objects.get(pk=request_id).status == "pending"
    assert MpesaConnection.objects.get().c2b_registered_at is None


def test_the_ratiba_switch_waits_for_the_treasurer_and_is_checked_again_when_approved(church, make_api_client):
    owner = connected(church, make_api_client)  # one guardian: at once
    treasurer_user = member(church.campaign.organization, Role.TREASURER)
    treasurer = make_api_client(signed_in_as=treasurer_user)

    asked = owner.put(church.url + "/ratiba", {"enabled": True}, content_type=JSON)

    assert asked.status_code == 202, asked.content
    assert asked.json()["description"] == "Offer M-Pesa Ratiba (standing orders) on M-Pesa paybill 600100."
    assert MpesaConnection.objects.get().ratiba_enabled is False
    assert approve(treasurer, church, asked.json()["id"]).status_code == 200
    assert MpesaConnection.objects.get().ratiba_enabled is True
    assert AuditEntry.objects.get(action="mpesa_ratiba_set").actor == treasurer_user


def test_a_ratiba_switch_is_refused_at_approval_when_the_paybill_changed_meanwhile(church, make_api_client):
    owner = connected(church, make_api_client)
    treasurer = make_api_client(signed_in_as=member(church.campaign.organization, Role.TREASURER))
    request_id = owner.put(church.url + "/ratiba", {"enabled": True}, content_type=JSON).json()["id"]
    church.account.paybill_number = "600200"
    church.account.save()

    answer = approve(treasurer, church, request_id)

    assert (answer.status_code, answer.json()["code"]) == (400, "account_changed")
    assert ChangeRequest.objects.get(pk=request_id).status == "pending"
    assert MpesaConnection.objects.get().ratiba_enabled is False
