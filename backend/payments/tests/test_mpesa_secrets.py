"""An organization's Daraja secrets never appear in clear: not in the API, the admin, the logs or
the exports; the database holds ciphertext; a key rotation re-encrypts it and the account still
works."""

import logging

import pytest
from cryptography.fernet import Fernet
from django.core.management import call_command
from django.db import connection as db

from accounts.tests.factories import UserFactory
from common.encryption import decrypt
from organizations.models import ChangeRequest
from organizations.roles import Role
from payments.models import MpesaConnection
from payments.tests.connected_support import CREDENTIALS, JSON, SECRETS, member, pay_paybill
from pledges.tests.factories import make_pledge

pytestmark = pytest.mark.django_db(transaction=True)


def clear(text: str) -> list[str]:
    """The secrets found in ``text``."""
    return [name for name, secret in SECRETS.items() if secret in text]


def body(answer) -> str:
    if answer.streaming:
        return b"".join(answer.streaming_content).decode()
    return answer.content.decode()


def stored(column: str) -> str:
    with db.cursor() as cursor:
        cursor.execute(f"SELECT {column} FROM payments_mpesaconnection")  # noqa: S608 - our own column names
        return cursor.fetchone()[0]


def test_the_api_admin_logs_and_exports_never_show_a_secret(church, make_api_client, providers, caplog, client):
    caplog.set_level(logging.DEBUG)
    owner = make_api_client(signed_in_as=church.owner)
    answers = [owner.put(church.url, CREDENTIALS, content_type=JSON)]
    answers += [owner.post(church.url + "/test", {}), owner.post(church.url + "/connect", {})]
    answers.append(owner.put(church.url, {"passkey": "wrong-passkey"}, content_type=JSON))
    answers.append(owner.post(church.url + "/test", {}))  # refused: the message names no secret
    answers.append(owner.put(church.url, {"passkey": SECRETS["passkey"]}, content_type=JSON))
    pledge = make_pledge(church.campaign, amount=1000)
    pay_paybill(providers, ShortCode="600100", BillRefNumber=pledge.code, Amount=200, DropConfirmation=True)
    answers += [owner.post(church.url + "/pull", {}), owner.get(church.url)]
    answers += [
        owner.get(f"/api/pledges/export.csv?campaign_id={church.campaign.pk}"),
        owner.get(f"/api/donations/export.csv?campaign_id={church.campaign.pk}"),
        owner.get("/api/profile/export"),
    ]
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    mpesa_connection = MpesaConnection.objects.get()
    admin_pages = [
        "/admin/payments/mpesaconnection/",
        f"/admin/payments/mpesaconnection/{mpesa_connection.pk}/change/",
        f"/admin/collection_accounts/collectionaccount/{church.account.pk}/change/",
        "/admin/payments/payment/",
        "/admin/payments/paymentevent/",
        "/admin/audit/auditentry/",
    ]
    answers += [client.get(page) for page in admin_pages]

    assert [answer.status_code for answer in answers] == [200, 200, 200, 200, 400, 200, 200, 200, 200, 200, 200] + [
        200
    ] * len(admin_pages)
    assert answers[4].json()["code"] == "mpesa_wrong_passkey"
    assert [clear(body(answer)) for answer in answers] == [[]] * len(answers)
    assert clear(caplog.text) == []


def test_the_database_holds_only_ciphertext(church, make_api_client):
    make_api_client(signed_in_as=church.owner).put(church.url, CREDENTIALS, content_type=JSON)

    for column in ("consumer_key", "consumer_secret", "passkey"):
        ciphertext = stored(column)
        assert clear(ciphertext) == []
        assert ciphertext.startswith("gAAAAA")  # a Fernet token
        assert decrypt(ciphertext) == SECRETS[column]


def test_a_rotated_key_re_encrypts_every_secret_and_the_account_still_works(
    church, make_api_client, providers, settings
):
    owner = make_api_client(signed_in_as=church.owner)
    owner.put(church.url, CREDENTIALS, content_type=JSON)
    before = stored("consumer_secret")
    new_key = Fernet.generate_key().decode()
    settings.SECRETS_ENCRYPTION_KEYS = [new_key, *settings.SECRETS_ENCRYPTION_KEYS]

    call_command("rotate_secrets_key", stdout=open("/dev/null", "w"))  # noqa: SIM115
    settings.SECRETS_ENCRYPTION_KEYS = [new_key]  # the old key dropped

    after = stored("consumer_secret")
    assert after != before
    assert Fernet(new_key).decrypt(after.encode()).decode() == SECRETS["consumer_secret"]
    assert owner.post(church.url + "/test", {}).status_code == 200


def test_a_rotated_key_re_encrypts_credentials_waiting_for_approval_and_they_still_apply(
    church, make_api_client, settings
):
    treasurer = member(church.campaign.organization, Role.TREASURER)
    request_id = make_api_client(signed_in_as=church.owner).put(church.url, CREDENTIALS, content_type=JSON).json()["id"]
    before = ChangeRequest.objects.get(pk=request_id).payload["encrypted"]
    new_key = Fernet.generate_key().decode()
    settings.SECRETS_ENCRYPTION_KEYS = [new_key, *settings.SECRETS_ENCRYPTION_KEYS]

    call_command("rotate_secrets_key", stdout=open("/dev/null", "w"))  # noqa: SIM115
    settings.SECRETS_ENCRYPTION_KEYS = [new_key]  # the old key dropped

    after = ChangeRequest.objects.get(pk=request_id).payload["encrypted"]
    assert set(after) == set(before) and all(after[name] != before[name] for name in before)
    assert Fernet(new_key).decrypt(after["passkey"].encode()).decode() == SECRETS["passkey"]
    approved = make_api_client(signed_in_as=treasurer).post(
        f"/api/orgs/{church.campaign.organization_id}/approvals/{request_id}/approve"
    )
    assert approved.status_code == 200, approved.content
    assert MpesaConnection.objects.get().consumer_secret == SECRETS["consumer_secret"]
