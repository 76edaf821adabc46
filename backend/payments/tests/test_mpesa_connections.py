"""An organization connects its own paybill or till (its own Daraja app): credentials stored
write-only, Test and Connect as separate steps, its callbacks routed by its own token, STK Push
into its account, and Pull Transactions recovering confirmations that never came. Driven over
HTTP against the Daraja simulator."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from campaigns.tests.factories import CampaignFactory
from organizations.roles import Role
from payments.models import MpesaConnection, Payment, PaymentEvent
from payments.services import mpesa_pull_due
from payments.tests.connected_support import (
    CREDENTIALS,
    JSON,
    SECRETS,
    church_bank_account,
    connected,
    member,
    pay_paybill,
    url,
)
from payments.tests.support import settled, wait_for
from pledges.tests.factories import make_pledge
from simulators.daraja import daraja_app_register
from simulators.models import SimulatedC2BRegistration, SimulatedPullRegistration, SimulatedStkRequest

pytestmark = pytest.mark.django_db(transaction=True)


def test_credentials_are_write_only_and_the_answer_says_only_what_is_set(church, make_api_client):
    client = make_api_client(signed_in_as=church.owner)

    answer = client.put(church.url, CREDENTIALS, content_type=JSON)

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["has_consumer_key"], body["has_consumer_secret"], body["has_passkey"]) == (True, True, True)
    assert body["nominated_number"] == "+254722000111"
    assert body["connected_at"] is None
    assert not any(secret in answer.content.decode() for secret in SECRETS.values())
    assert client.get(church.url).json() == body
    entry = AuditEntry.objects.get(action=AuditAction.MPESA_CREDENTIALS_SET)
    assert entry.after == {"replaced": ["consumer_key", "consumer_secret", "nominated_number", "passkey"]}


def test_a_new_connection_needs_every_credential_and_a_blank_later_keeps_the_stored_one(church, make_api_client):
    client = make_api_client(signed_in_as=church.owner)

    refused = client.put(church.url, {"consumer_key": "k"}, content_type=JSON)
    client.put(church.url, CREDENTIALS, content_type=JSON)
    replaced = client.put(church.url, {"consumer_secret": "rotated-secret"}, content_type=JSON)

    assert refused.status_code == 422
    assert set(refused.json()["field_errors"]) == {"consumer_secret", "passkey", "nominated_number"}
    assert replaced.status_code == 200
    connection = MpesaConnection.objects.get()
    assert (connection.consumer_key, connection.consumer_secret) == (SECRETS["consumer_key"], "rotated-secret")


@pytest.mark.parametrize(
    # With the owner and a treasurer, the two-person rule holds: the treasurer's credentials wait (202).
    ("role", "status"),
    [(Role.TREASURER, 202), (Role.USHER, 403), (Role.VIEWER, 403), (None, 404)],
)
def test_only_owners_and_treasurers_set_credentials(church, make_api_client, role, status):
    user = member(church.campaign.organization, role) if role else UserFactory.create()

    answer = make_api_client(signed_in_as=user).put(church.url, CREDENTIALS, content_type=JSON)

    assert answer.status_code == status


def test_a_bank_account_cannot_be_connected(church, make_api_client):
    bank = church_bank_account(church.campaign.organization)

    answer = make_api_client(signed_in_as=church.owner).put(url(bank), CREDENTIALS, content_type=JSON)

    assert answer.status_code == 400
    assert answer.json()["code"] == "not_mpesa_account"


def test_the_test_checks_the_credentials_and_registers_nothing(church, make_api_client):
    client = make_api_client(signed_in_as=church.owner)
    client.put(church.url, CREDENTIALS, content_type=JSON)

    answer = client.post(church.url + "/test", {})

    assert answer.status_code == 200, answer.content
    assert answer.json()["last_tested_at"] is not None
    assert answer.json()["connected_at"] is None
    assert not SimulatedC2BRegistration.objects.exists()
    assert not SimulatedPullRegistration.objects.exists()


@pytest.mark.parametrize(
    ("change", "code", "words"),
    [
        ({"consumer_secret": "guessed"}, "mpesa_wrong_credentials", "consumer key and secret"),
        ({"passkey": "another-passkey"}, "mpesa_wrong_passkey", "passkey does not match 600100"),
    ],
)
def test_each_wrong_credential_has_its_own_message(church, make_api_client, change, code, words):
    client = make_api_client(signed_in_as=church.owner)
    client.put(church.url, {**CREDENTIALS, **change}, content_type=JSON)

    answer = client.post(church.url + "/test", {})

    assert answer.status_code == 400
    assert answer.json()["code"] == code
    assert words in answer.json()["detail"]


def test_an_app_not_linked_to_the_shortcode_is_told_so(church, make_api_client):
    daraja_app_register(shortcode="600999", consumer_key="other-key", consumer_secret="other-secret", passkey="p")
    client = make_api_client(signed_in_as=church.owner)
    client.put(
        church.url, {**CREDENTIALS, "consumer_key": "other-key", "consumer_secret": "other-secret"}, content_type=JSON
    )

    answer = client.post(church.url + "/test", {})

    assert answer.json()["code"] == "mpesa_wrong_shortcode"
    assert "600100" in answer.json()["detail"]


def test_m_pesa_out_of_reach_is_its_own_message(church, make_api_client, settings):
    client = make_api_client(signed_in_as=church.owner)
    client.put(church.url, CREDENTIALS, content_type=JSON)
    settings.MPESA_BASE_URL = "http://127.0.0.1:9/simulators/daraja"

    answer = client.post(church.url + "/test", {})

    assert answer.json()["code"] == "provider_unavailable"


def test_connect_registers_the_accounts_own_urls_and_pull_once(church, make_api_client, settings):
    client = connected(church, make_api_client)

    again = client.post(church.url + "/connect", {})
    reregistered = client.post(church.url + "/connect", {"reregister": True})

    connection = MpesaConnection.objects.get()
    registration = SimulatedC2BRegistration.objects.get(shortcode="600100")
    assert connection.callback_token in registration.confirmation_url
    assert settings.MPESA_CALLBACK_TOKEN not in registration.confirmation_url
    assert SimulatedPullRegistration.objects.get(shortcode="600100").nominated_number == "254722000111"
    church.account.refresh_from_db()
    assert church.account.offers_stk_push
    assert again.status_code == 400
    assert again.json()["code"] == "mpesa_already_connected"
    assert reregistered.status_code == 200
    assert [entry.action for entry in AuditEntry.objects.filter(action__startswith="mpesa_").order_by("pk")] == [
        AuditAction.MPESA_CREDENTIALS_SET,
        AuditAction.MPESA_CONNECTED,
        AuditAction.MPESA_REREGISTERED,
    ]


def test_a_paybill_payment_with_the_pledge_code_is_credited_to_the_church_only(church, make_api_client, providers):
    connected(church, make_api_client)
    pledge = make_pledge(church.campaign, amount=1000)

    receipt = pay_paybill(providers, ShortCode="600100", BillRefNumber=pledge.code, Amount=400)

    wait_for(lambda: Payment.objects.filter(mpesa_receipt=receipt).exists())
    assert Payment.objects.get(mpesa_receipt=receipt).collection_account == MpesaConnection.objects.get().account
    pledge.refresh_from_db()
    assert pledge.paid_amount == 400
    assert not Payment.objects.filter(collection_account__isnull=True, provider=Payment.Provider.MPESA_C2B).exists()


def test_another_organizations_pledge_code_paid_to_the_church_is_not_credited(church, make_api_client, providers):
    connected(church, make_api_client)
    stranger = make_pledge(CampaignFactory.create(), amount=1000)

    receipt = pay_paybill(providers, ShortCode="600100", BillRefNumber=stranger.code, Amount=400)

    wait_for(lambda: Payment.objects.filter(mpesa_receipt=receipt).exists())
    stranger.refresh_from_db()
    assert stranger.paid_amount == 0


def test_a_confirmation_on_the_churchs_url_for_another_shortcode_is_ignored(church, make_api_client):
    connected(church, make_api_client)
    token = MpesaConnection.objects.get().callback_token
    body = {"TransID": "SLK4Q7T2XZ", "TransAmount": "500.00", "BusinessShortCode": "174379", "BillRefNumber": "X"}

    answer = Client().post(f"/api/payments/callbacks/c2b/{token}/confirmation", body, content_type="application/json")

    assert answer.status_code == 200
    assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.IGNORED_UNKNOWN
    assert not Payment.objects.exists()


def test_an_unknown_token_is_not_found(church):
    answer = Client().post("/api/payments/callbacks/c2b/not-a-token/confirmation", {}, content_type="application/json")

    assert answer.status_code == 404


def test_pay_now_prompts_on_the_churchs_paybill_and_its_callback_credits_the_pledge(church, make_api_client):
    connected(church, make_api_client)
    pledge = make_pledge(church.campaign, amount=1000)

    answer = make_api_client().post(
        f"/api/pledges/{pledge.code}/stk-push", {"phone": "0708374149", "idempotency_key": "pay-now-0001"}
    )

    assert answer.status_code == 201, answer.content
    prompt = SimulatedStkRequest.objects.get()
    assert (prompt.shortcode, prompt.party_b, prompt.account_reference) == ("600100", "600100", pledge.code)
    assert MpesaConnection.objects.get().callback_token in prompt.callback_url
    payment = settled(answer.json()["reference"])
    assert payment.status == Payment.Status.SUCCEEDED
    pledge.refresh_from_db()
    assert pledge.paid_amount == 1000


def test_fees_still_go_to_the_platforms_shortcode(church, make_api_client):
    connected(church, make_api_client)
    client = make_api_client(signed_in_as=church.owner)

    answer = client.post(
        "/api/payments/stk-push", {"purpose": "subscription", "phone": "0708374149", "idempotency_key": "fee-00001"}
    )

    assert answer.status_code == 201, answer.content
    assert SimulatedStkRequest.objects.get().shortcode == "174379"


def test_a_dropped_confirmation_is_credited_by_pull_once(church, make_api_client, providers):
    client = connected(church, make_api_client)
    pledge = make_pledge(church.campaign, amount=1000)
    pay_paybill(providers, ShortCode="600100", BillRefNumber=pledge.code, Amount=300, DropConfirmation=True)

    first = client.post(church.url + "/pull", {})
    second = client.post(church.url + "/pull", {})

    assert first.json() == {"pulled": 1, "credited": 1}
    assert second.json() == {"pulled": 1, "credited": 0}
    pledge.refresh_from_db()
    assert pledge.paid_amount == 300
    assert PaymentEvent.objects.filter(kind=PaymentEvent.Kind.PULL).count() == 1


def test_a_confirmation_from_outside_the_allowed_addresses_is_credited_only_by_the_next_pull(
    church, make_api_client, providers, settings
):
    client = connected(church, make_api_client)
    settings.MPESA_ALLOWED_IPS = ["196.201.214.200"]  # Safaricom's
    pledge = make_pledge(church.campaign, amount=1000)
    # Safaricom has the payment (Pull lists it); what reaches our URL comes from elsewhere.
    receipt = pay_paybill(providers, ShortCode="600100", BillRefNumber=pledge.code, Amount=400, DropConfirmation=True)
    notification = {
        "TransactionType": "Pay Bill",
        "TransID": receipt,
        "TransTime": timezone.localtime().strftime("%Y%m%d%H%M%S"),
        "TransAmount": "400.00",
        "BusinessShortCode": "600100",
        "BillRefNumber": pledge.code,
        "MSISDN": "2547 ***** 149",
        "FirstName": "John",
    }
    confirmation_url = f"/api/payments/callbacks/c2b/{MpesaConnection.objects.get().callback_token}/confirmation"

    from_outside = Client().post(confirmation_url, notification, content_type=JSON, REMOTE_ADDR="203.0.113.9")
    pledge.refresh_from_db()
    assert (from_outside.status_code, pledge.paid_amount) == (403, 0)

    assert client.post(church.url + "/pull", {}).json() == {"pulled": 1, "credited": 1}
    # Safaricom's own confirmation, late: the payment is already known by its receipt.
    from_safaricom = Client().post(confirmation_url, notification, content_type=JSON, REMOTE_ADDR="196.201.214.200")

    assert from_safaricom.status_code == 200
    pledge.refresh_from_db()
    assert pledge.paid_amount == 400
    assert Payment.objects.filter(mpesa_receipt=receipt).count() == 1


def test_the_scheduled_pull_runs_each_account_every_ten_minutes(church, make_api_client, providers):
    connected(church, make_api_client)
    pay_paybill(providers, ShortCode="600100", BillRefNumber="TITHE", Amount=300, DropConfirmation=True)

    first = mpesa_pull_due()
    too_soon = mpesa_pull_due()
    MpesaConnection.objects.update(last_pulled_at=timezone.now() - timedelta(minutes=11))
    later = mpesa_pull_due()

    assert (first["accounts"], first["credited"]) == (1, 1)
    assert too_soon["accounts"] == 0
    assert (later["accounts"], later["credited"]) == (1, 0)


def test_pull_before_connecting_is_refused(church, make_api_client):
    client = make_api_client(signed_in_as=church.owner)
    client.put(church.url, CREDENTIALS, content_type=JSON)

    answer = client.post(church.url + "/pull", {})

    assert answer.status_code == 400
    assert answer.json()["code"] == "mpesa_not_connected"
