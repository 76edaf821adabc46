"""Fixtures of the whole-API tests: payment providers that accept every request without a network
(``pytest.mark.usefixtures("payment_providers")``)."""

import uuid
from typing import Any

import pytest

from campaigns.tests.conftest import (
    member,
    member_client,
    organizer,
    organizer_client,
    site_admin,
    site_admin_client,
    visitor_client,
)
from payments.providers.airtel import AirtelClient, PushAccepted
from payments.providers.daraja import DarajaClient, StkPushAccepted
from payments.providers.paystack import Checkout, PaystackClient, Subaccount

__all__ = [
    "member",
    "member_client",
    "organizer",
    "organizer_client",
    "site_admin",
    "site_admin_client",
    "visitor_client",
]

# Port 9 (discard) refuses at once: a provider call these stubs miss fails fast and reaches no one's server.
UNREACHABLE = "http://127.0.0.1:9"


@pytest.fixture
def payment_providers(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Daraja takes every STK Push, credential check and registration and lists no missed payment,
    and Paystack opens every checkout and takes every bank account, as the real ones would."""
    """Daraja takes every STK Push, standing order, credential check and registration and lists no missed payment,
    and Paystack opens every checkout, as the real ones would."""
    settings.MPESA_BASE_URL = f"{UNREACHABLE}/daraja"
    settings.PAYSTACK_BASE_URL = f"{UNREACHABLE}/paystack"

    def stk_push(self: DarajaClient, **request: Any) -> StkPushAccepted:
        return StkPushAccepted(
            merchant_request_id="29115-34620561-1",
            checkout_request_id=f"ws_CO_{uuid.uuid4().hex}",
            customer_message="Success. Request accepted for processing",
        )

    def initialize(self: PaystackClient, *, reference: str, **request: Any) -> Checkout:
        return Checkout(
            authorization_url=f"https://checkout.paystack.com/{reference}", access_code=reference, reference=reference
        )

    monkeypatch.setattr(DarajaClient, "stk_push", stk_push)
    monkeypatch.setattr(
        AirtelClient,
        "push",
        lambda self, *, transaction_id, **request: PushAccepted(
            transaction_id=transaction_id, response_code="DP00800001006", message="Success."
        ),
    )
    monkeypatch.setattr(DarajaClient, "check_shortcode", lambda self: None)
    monkeypatch.setattr(DarajaClient, "register_c2b_urls", lambda self, **urls: {"ResponseCode": "0"})
    monkeypatch.setattr(DarajaClient, "register_pull", lambda self, **request: "Shortcode registered successfully")
    monkeypatch.setattr(DarajaClient, "pull_transactions", lambda self, **period: [])
    monkeypatch.setattr(DarajaClient, "standing_order_create", lambda self, terms, **request: None)
    monkeypatch.setattr(PaystackClient, "initialize", initialize)
    monkeypatch.setattr(
        PaystackClient,
        "subaccount_create",
        lambda self, **subaccount: Subaccount(
            subaccount_code=f"ACCT_{uuid.uuid4().hex[:12]}",
            settlement_bank=subaccount["settlement_bank"],
            account_number=subaccount["account_number"],
        ),
    )
