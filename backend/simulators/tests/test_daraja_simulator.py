"""The Daraja simulator refuses what the real Daraja refuses, so adapter bugs show up locally."""

import base64
from datetime import timedelta

import httpx
import pytest
from django.test import Client
from django.utils import timezone

from payments.models import Payment
from payments.providers import ProviderError
from payments.providers.daraja import DarajaClient, DarajaCredentials, password, timestamp
from payments.services import payment_stk_push_start
from payments.tests.support import settled
from simulators.daraja import stk_outcome
from simulators.models import SimulatedStkRequest

pytestmark = pytest.mark.django_db(transaction=True)


def token(url: str) -> str:
    basic = base64.b64encode(b"local-consumer-key:local-consumer-secret").decode()
    answer = httpx.get(
        f"{url}/simulators/daraja/oauth/v1/generate",
        params={"grant_type": "client_credentials"},
        headers={"Authorization": f"Basic {basic}"},
    )
    assert answer.json()["expires_in"] == "3599"
    return answer.json()["access_token"]


def push(url: str, access_token: str, **fields):
    stamp = timestamp()
    body = {
        "BusinessShortCode": "174379",
        "Password": password(shortcode="174379", passkey=DarajaCredentials.from_settings().passkey, timestamp=stamp),
        "Timestamp": stamp,
        "TransactionType": "CustomerPayBillOnline",
        "Amount": 10,
        "PartyA": "254700000000",
        "PartyB": "174379",
        "PhoneNumber": "254700000000",
        "CallBackURL": f"{url}/api/payments/callbacks/stk/local-callback-token",
        "AccountReference": "ABC",
        "TransactionDesc": "Test",
        **fields,
    }
    return httpx.post(
        f"{url}/simulators/daraja/mpesa/stkpush/v1/processrequest",
        json=body,
        headers={"Authorization": f"Bearer {access_token}"},
    )


def test_wrong_consumer_credentials_get_no_token(providers):
    with pytest.raises(ProviderError, match="400"):
        DarajaClient.for_credentials(
            DarajaCredentials(
                consumer_key="local-consumer-key", consumer_secret="guessed", shortcode="174379", passkey="x"
            )
        ).access_token()


def test_an_unknown_token_is_refused_like_daraja_does(providers):
    answer = push(providers.url, "forged-token")

    assert answer.status_code == 404
    assert answer.json()["errorCode"] == "404.001.03"


@pytest.mark.parametrize(
    ("fields", "invalid"),
    [
        # A UTC timestamp (three hours behind Nairobi) is refused: Daraja means Nairobi time.
        ({"Timestamp": (timezone.now() - timedelta(hours=3)).strftime("%Y%m%d%H%M%S")}, "Timestamp"),
        ({"Amount": 10.5}, "Amount"),
        ({"PhoneNumber": "0712345678"}, "PhoneNumber"),
        ({"AccountReference": "THIRTEEN-CHAR"}, "AccountReference"),
    ],
    ids=["utc-timestamp", "fractional-amount", "local-phone-format", "long-account-reference"],
)
def test_a_malformed_push_is_refused(providers, fields, invalid):
    answer = push(providers.url, token(providers.url), **fields)

    assert answer.status_code == 400
    assert answer.json()["errorMessage"] == f"Bad Request - Invalid {invalid}"


def test_a_password_made_with_another_passkey_is_refused_as_wrong_credentials(providers):
    answer = push(providers.url, token(providers.url), Password="d3Jvbmc=")

    assert answer.status_code == 500
    assert answer.json() == {**answer.json(), "errorCode": "500.001.1001", "errorMessage": "Wrong credentials"}


def test_registering_urls_that_mention_mpesa_is_refused(providers):
    with pytest.raises(ProviderError, match="ConfirmationURL"):
        DarajaClient.from_settings().register_c2b_urls(
            confirmation_url=f"{providers.url}/mpesa/confirmation", validation_url=f"{providers.url}/ok"
        )


def test_outcomes_follow_the_documented_test_numbers():
    assert stk_outcome("254708374149")[0] == 0
    assert stk_outcome("254700001032")[0] == 1032
    assert stk_outcome("254700001037")[0] == 1037
    assert stk_outcome("254700000001")[0] == 1


def test_the_virtual_phone_lists_open_prompts_and_approving_one_pays(providers, user):
    payment = payment_stk_push_start(purpose="subscription", amount=2500, phone="0700000000", user=user)
    browser = Client()

    page = browser.get("/simulators/daraja/phone")
    assert f"Pay KES 2500 to 174379 (account {payment.reference})" in page.content.decode()

    answer = browser.post(f"/simulators/daraja/phone/{payment.checkout_request_id}", {"action": "approve"})

    assert answer.status_code == 302
    assert settled(payment.reference).status == Payment.Status.SUCCEEDED
    assert SimulatedStkRequest.objects.get().result_code == 0


def test_declining_on_the_virtual_phone_cancels(providers, user):
    payment = payment_stk_push_start(purpose="subscription", amount=2500, phone="0700000000", user=user)

    Client().post(f"/simulators/daraja/phone/{payment.checkout_request_id}", {"action": "decline"})

    assert settled(payment.reference).status == Payment.Status.CANCELLED
