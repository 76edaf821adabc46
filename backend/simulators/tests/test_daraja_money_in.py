"""Every payment into a shortcode, as M-Pesa reports it: a PIN prompt's payment is listed in the statement and
in Pull Transactions like a paybill payment, C2B URLs register on v1 and v2, and the sandbox's C2B simulate
(as Daraja SDKs call it) pays the shortcode and posts the confirmation to the registered URL."""

import csv
import io
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from simulators.tests.support import posted_to
from simulators.tests.test_daraja_simulator import push, token

pytestmark = pytest.mark.django_db(transaction=True)

NAIROBI = ZoneInfo("Africa/Nairobi")
PAYER = "254708374149"  # Safaricom's sandbox test number: the prompt is paid


def nairobi_time(stamp: Any) -> datetime:
    """Daraja's ``YYYYMMDDHHMMSS`` (a number in STK callbacks, a string in C2B), Nairobi time."""
    return datetime.strptime(str(stamp), "%Y%m%d%H%M%S").replace(tzinfo=NAIROBI)


def daraja(url: str, path: str, access_token: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{url}/simulators/daraja{path}", json=body, headers={"Authorization": f"Bearer {access_token}"}, timeout=10
    )


def paid_prompt(providers: SimpleNamespace, receiver: SimpleNamespace) -> dict[str, Any]:
    """A PIN prompt for account ``PLG-7Q4K`` that the payer approves: its callback's metadata by name."""
    answer = push(
        providers.url,
        token(providers.url),
        Amount=1500,
        PartyA=PAYER,
        PhoneNumber=PAYER,
        AccountReference="PLG-7Q4K",
        CallBackURL=f"{receiver.url}/stk",
    )
    assert answer.status_code == 200, answer.text
    (callback,) = posted_to(receiver, "/stk")
    items = callback["Body"]["stkCallback"]["CallbackMetadata"]["Item"]
    return {item["Name"]: item.get("Value") for item in items}


def test_the_statement_lists_a_pin_prompt_payment_with_its_receipt_time_payer_and_account(providers, receiver):
    paid = paid_prompt(providers, receiver)

    answer = httpx.get(f"{providers.url}/simulators/daraja/statement/174379.csv", timeout=10)

    assert answer.status_code == 200
    (row,) = [row for row in statement_rows(answer.content) if row["Receipt No."] == paid["MpesaReceiptNumber"]]
    assert row["Completion Time"] == nairobi_time(paid["TransactionDate"]).strftime("%Y-%m-%d %H:%M:%S")
    assert row["Paid In"] == "1,500.00"
    assert row["A/C No."] == "PLG-7Q4K"
    # The payer, masked as M-Pesa masks it: the first digits and the last three.
    assert row["Other Party Info"].startswith("2547") and "149 - " in row["Other Party Info"]
    assert row["Transaction Status"] == "Completed"


def statement_rows(content: bytes) -> list[dict[str, str]]:
    """The transactions of an Org Portal export, below its preamble."""
    text = content.decode()
    return list(csv.DictReader(io.StringIO(text[text.index("Receipt No.") :])))


def test_pull_transactions_lists_a_pin_prompt_payment(providers, receiver):
    paid = paid_prompt(providers, receiver)
    access_token = token(providers.url)
    registered = daraja(
        providers.url,
        "/pulltransactions/v1/register",
        access_token,
        {"ShortCode": "174379", "RequestType": "Pull", "NominatedNumber": PAYER, "CallBackURL": f"{receiver.url}/p"},
    )
    assert registered.json()["ResponseStatus"] == "1000"
    now = datetime.now(NAIROBI)

    answer = daraja(
        providers.url,
        "/pulltransactions/v1/query",
        access_token,
        {
            "ShortCode": "174379",
            "StartDate": (now - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S"),
            "EndDate": (now + timedelta(minutes=1)).strftime("%Y-%m-%d %H:%M:%S"),
            "OffSetValue": "0",
        },
    )

    assert answer.json()["ResponseCode"] == "1000"
    (pulled,) = answer.json()["Response"][0]
    assert pulled["transactionId"] == paid["MpesaReceiptNumber"]
    assert datetime.fromisoformat(pulled["trxDate"]) == nairobi_time(paid["TransactionDate"])
    assert pulled["billreference"] == "PLG-7Q4K"
    assert pulled["amount"] == "1500.0"
    assert pulled["msisdn"].startswith("2547") and pulled["msisdn"].endswith("149")


def register(providers: SimpleNamespace, receiver: SimpleNamespace, version: str, **fields: Any) -> httpx.Response:
    body = {
        "ShortCode": "174379",
        "ResponseType": "Completed",
        "ConfirmationURL": f"{receiver.url}/confirmation",
        "ValidationURL": f"{receiver.url}/validation",
        **fields,
    }
    return daraja(providers.url, f"/mpesa/c2b/{version}/registerurl", token(providers.url), body)


def simulate(providers: SimpleNamespace, version: str = "v1", **fields: Any) -> httpx.Response:
    body = {
        "ShortCode": "174379",
        "CommandID": "CustomerPayBillOnline",
        "Amount": 2500,
        "Msisdn": PAYER,
        "BillRefNumber": "PLG-7Q4K",
        **fields,
    }
    return daraja(providers.url, f"/mpesa/c2b/{version}/simulate", token(providers.url), body)


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_c2b_urls_register_on_v1_and_v2_alike_and_the_confirmation_reaches_them(providers, receiver, version):
    registered = register(providers, receiver, version)

    assert registered.status_code == 200
    assert registered.json()["ResponseCode"] == "0"
    assert registered.json()["ResponseDescription"] == "Success"
    assert simulate(providers).status_code == 200
    (confirmation,) = posted_to(receiver, "/confirmation")
    assert posted_to(receiver, "/validation") == [confirmation]


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_c2b_urls_mentioning_mpesa_are_refused_on_v1_and_v2_alike(providers, receiver, version):
    answer = register(providers, receiver, version, ConfirmationURL=f"{receiver.url}/mpesa/confirmation")

    assert answer.status_code == 400
    assert answer.json()["errorCode"] == "400.002.02"
    assert answer.json()["errorMessage"] == "Bad Request - Invalid ConfirmationURL"


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_the_daraja_c2b_simulate_pays_the_paybill_and_posts_a_complete_confirmation(providers, receiver, version):
    register(providers, receiver, "v2")

    answer = simulate(providers, version)

    assert answer.status_code == 200
    assert answer.json()["ResponseCode"] == "0"
    assert answer.json()["ResponseDescription"] == "Accept the service request successfully."
    assert answer.json()["OriginatorCoversationID"]
    (confirmation,) = posted_to(receiver, "/confirmation")
    assert confirmation == {
        **confirmation,
        "TransactionType": "Pay Bill",
        "TransAmount": "2500.00",
        "BusinessShortCode": "174379",
        "BillRefNumber": "PLG-7Q4K",
        "MSISDN": "2547 ***** 149",
        "InvoiceNumber": "",
        "OrgAccountBalance": "",
        "ThirdPartyTransID": "",
    }
    assert len(confirmation["TransID"]) == 10
    assert abs(datetime.now(NAIROBI) - nairobi_time(confirmation["TransTime"])) < timedelta(minutes=5)
    assert {"FirstName", "MiddleName", "LastName"} <= confirmation.keys()


@pytest.mark.parametrize(
    ("fields", "invalid"),
    [
        ({"ShortCode": "600000"}, "ShortCode"),
        ({"CommandID": "BusinessPayment"}, "CommandID"),
        ({"Amount": 10.5}, "Amount"),
        ({"Amount": 0}, "Amount"),
        ({"Msisdn": "0708374149"}, "Msisdn"),
    ],
    ids=["another-apps-shortcode", "unknown-command", "fractional-amount", "zero-amount", "local-phone-format"],
)
def test_a_malformed_daraja_c2b_simulate_is_refused_in_darajas_error_shape_and_pays_nothing(
    providers, receiver, fields, invalid
):
    register(providers, receiver, "v1")

    answer = simulate(providers, **fields)

    assert answer.status_code == 400
    assert answer.json().keys() == {"requestId", "errorCode", "errorMessage"}
    assert answer.json()["errorCode"] == "400.002.02"
    assert answer.json()["errorMessage"] == f"Bad Request - Invalid {invalid}"
    assert posted_to(receiver, "/confirmation") == []


def test_the_daraja_c2b_simulate_needs_the_apps_token(providers, receiver):
    register(providers, receiver, "v1")

    answer = daraja(providers.url, "/mpesa/c2b/v1/simulate", "forged-token", {"ShortCode": "174379"})

    assert answer.status_code == 404
    assert answer.json()["errorCode"] == "404.001.03"
    assert answer.json()["errorMessage"] == "Invalid Access Token"
