from typing import Any

import httpx
import pytest

from payments.providers import ProviderError
from payments.providers.paystack import PaystackClient

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
