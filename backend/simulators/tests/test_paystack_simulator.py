from typing import Any

import httpx
import pytest

from payments.providers import ProviderError
from payments.providers.paystack import PaystackClient, PaystackRefused

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_wrong_secret_key_is_refused(providers):
    client = PaystackClient(base_url=f"{providers.url}/simulators/paystack", secret_key="sk_test_wrong")

    with pytest.raises(ProviderError, match="Invalid key"):
        client.verify("ANY")


def test_a_reference_can_be_used_once(providers):
    client = PaystackClient.from_settings()
    fields: dict[str, Any] = {
        "email": "payer@example.com",
        "amount_kes": 100,
        "reference": "REF-1",
        "callback_url": "",
        "metadata": {},
    }
    client.initialize(**fields)

    with pytest.raises(ProviderError, match="Duplicate Transaction Reference"):
        client.initialize(**fields)


def test_an_unpaid_checkout_verifies_as_abandoned_in_the_subunit(providers):
    client = PaystackClient.from_settings()
    checkout = client.initialize(
        email="payer@example.com", amount_kes=1500, reference="REF-2", callback_url="", metadata={}
    )

    tx = client.verify(checkout.reference)

    assert (tx.status, tx.amount_subunit, tx.currency) == ("abandoned", 150_000, "KES")
    page = httpx.get(checkout.authorization_url)
    assert "KES 1,500.00" in page.text
    assert "frame-ancestors 'self'" in page.headers["Content-Security-Policy"]


def test_a_subaccount_is_made_for_a_bank_account_and_a_checkout_with_it_settles_there(providers):
    client = PaystackClient.from_settings()

    subaccount = client.subaccount_create(
        business_name="St. Mark's Kiambu", settlement_bank="01", account_number="1180012345", percentage_charge=0
    )
    checkout = client.initialize(
        email="payer@example.com",
        amount_kes=700,
        reference="REF-SPLIT",
        callback_url="",
        metadata={},
        subaccount=subaccount.subaccount_code,
    )

    assert subaccount.subaccount_code.startswith("ACCT_")
    assert (subaccount.settlement_bank, subaccount.account_number) == ("01", "1180012345")
    settled_to = client.verify(checkout.reference).body["subaccount"]
    assert (settled_to["subaccount_code"], settled_to["account_number"]) == (subaccount.subaccount_code, "1180012345")


def test_a_checkout_without_a_subaccount_settles_to_the_main_account(providers):
    client = PaystackClient.from_settings()
    checkout = client.initialize(
        email="payer@example.com", amount_kes=700, reference="REF-MAIN", callback_url="", metadata={}
    )

    assert client.verify(checkout.reference).body["subaccount"] == {}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"account_number": "not-a-number"}, "Account details are invalid"),
        ({"settlement_bank": "K C B"}, "Unknown bank code"),
        ({"percentage_charge": 120}, "Percentage charge must be a number from 0 to 100"),
        ({"business_name": ""}, "business_name is required"),
    ],
)
def test_a_subaccount_paystack_cannot_make_is_refused_with_its_reason(providers, fields, message):
    request = {"business_name": "St. Mark's", "settlement_bank": "01", "account_number": "1180012345"}

    with pytest.raises(PaystackRefused) as refused:
        PaystackClient.from_settings().subaccount_create(**{"percentage_charge": 0, **request, **fields})

    assert refused.value.message == message


def test_an_unknown_subaccount_is_refused(providers):
    with pytest.raises(PaystackRefused, match="Subaccount not found"):
        PaystackClient.from_settings().initialize(
            email="payer@example.com",
            amount_kes=700,
            reference="REF-X",
            callback_url="",
            metadata={},
            subaccount="ACCT_nobody",
        )
