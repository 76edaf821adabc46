"""A Daraja SDK from PyPI (mpesa-sdk, a small client on requests) pointed at the simulator works as against the
sandbox: token, PIN prompt and its query, C2B URL registration, the sandbox's C2B simulate, and Daraja's errors.

The SDK has no base-URL option (only "sandbox" or "production"), so its sandbox address is pointed here."""

import pytest
from mpesa_sdk import (
    Mpesa,
    MpesaRequestError,
    generate_mpesa_express_password,
    generate_timestamp,
    oauth_generate_token,
)
from mpesa_sdk import urls as sdk_urls

from payments.providers.daraja import DarajaCredentials
from simulators.tests.support import posted_to

pytestmark = pytest.mark.django_db(transaction=True)

PAYER = "254708374149"  # Safaricom's sandbox test number: the prompt is paid


@pytest.fixture
def sdk(providers, monkeypatch) -> Mpesa:
    """The SDK, with the app's token, talking to the simulator."""
    monkeypatch.setattr(sdk_urls, "SANDBOX_BASE_URL", f"{providers.url}/simulators/daraja")
    answer, status = oauth_generate_token("local-consumer-key", "local-consumer-secret")
    assert status == 200
    assert answer["expires_in"] == "3599"
    return Mpesa(answer["access_token"])


def test_the_sdks_pin_prompt_is_answered_by_callback_and_by_query(sdk, receiver):
    stamp = generate_timestamp()
    password = generate_mpesa_express_password("174379", DarajaCredentials.from_settings().passkey, stamp)
    prompt = {"BusinessShortCode": "174379", "Password": password, "Timestamp": stamp}

    accepted, _ = sdk.mpesa_express_payment(
        {
            **prompt,
            "Amount": 1500,
            "PartyA": PAYER,
            "PartyB": "174379",
            "PhoneNumber": PAYER,
            "CallBackURL": f"{receiver.url}/stk",
            "AccountReference": "PLG-7Q4K",
            "TransactionDesc": "Pledge",
        }
    )

    (callback,) = posted_to(receiver, "/stk")
    assert callback["Body"]["stkCallback"]["CheckoutRequestID"] == accepted["CheckoutRequestID"]
    assert callback["Body"]["stkCallback"]["ResultCode"] == 0
    queried, _ = sdk.mpesa_express_query({**prompt, "CheckoutRequestID": accepted["CheckoutRequestID"]})
    assert queried["ResultCode"] == "0"


def test_the_sdks_c2b_registration_and_simulate_post_the_confirmation_to_the_registered_url(sdk, receiver):
    registered, _ = sdk.c2b_register_url(
        {
            "ShortCode": "174379",
            "ResponseType": "Completed",
            "ConfirmationURL": f"{receiver.url}/confirmation",
            "ValidationURL": f"{receiver.url}/validation",
        }
    )
    assert registered["ResponseCode"] == "0"

    paid, _ = sdk.c2b_simulate_transaction(
        {"ShortCode": "174379", "Amount": 2500, "Msisdn": PAYER, "BillRefNumber": "PLG-7Q4K"}
    )

    assert paid["ResponseCode"] == "0"
    (confirmation,) = posted_to(receiver, "/confirmation")
    assert (confirmation["TransAmount"], confirmation["BillRefNumber"]) == ("2500.00", "PLG-7Q4K")
    assert confirmation["BusinessShortCode"] == "174379"


def test_the_sdk_reports_darajas_refusal_in_its_words(sdk, receiver):
    with pytest.raises(MpesaRequestError, match="Bad Request - Invalid Msisdn") as refused:
        sdk.c2b_simulate_transaction({"ShortCode": "174379", "Amount": 2500, "Msisdn": "0708374149"})

    assert refused.value.status_code == 400


def test_the_sdk_gets_no_token_for_a_wrong_secret(sdk):
    with pytest.raises(MpesaRequestError, match="Invalid Authentication passed"):
        oauth_generate_token("local-consumer-key", "guessed")
