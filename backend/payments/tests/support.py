"""Helpers for tests that drive the real adapters over HTTP against the simulators."""

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any, TypeVar

import pytest
from django.utils import timezone

from accounts.models import User
from campaigns.models import Campaign
from organizations.services import organization_choose_for_campaign
from payments.models import Payment, PaymentEvent
from simulators.delivery import finish_pending_deliveries

T = TypeVar("T")

# Short, but not zero: callbacks really arrive later, from another thread, and tests poll.
SIMULATOR_DELAY_SECONDS = 0.2


@pytest.fixture
def providers(settings: Any, django_db_setup: None, live_server: Any) -> Iterator[SimpleNamespace]:
    """Point every adapter at the simulators served by the live server, and its callbacks back at it.

    Afterwards, drop the simulators' callbacks still to come and wait for those in flight: the
    test's database is cleared right after this teardown, and nothing may be writing to it then.
    A test may end without waiting for a callback (a refused or rate-limited push, a prompt
    nobody needs answered), and the live server may still be writing one and running its
    on-commit tasks.

    ``django_db_setup`` comes before ``live_server`` on purpose: both are session fixtures, and a
    live server started before the test database exists cannot share the in-memory SQLite
    connection, so its threads would open their own and meet "database table is locked".
    """
    url = live_server.url
    settings.SITE_URL = url
    settings.MPESA_BASE_URL = f"{url}/simulators/daraja"
    settings.MPESA_CALLBACK_BASE_URL = url
    settings.PAYSTACK_BASE_URL = f"{url}/simulators/paystack"
    settings.AIRTEL_BASE_URL = f"{url}/simulators/airtel"
    settings.SIMULATOR_PAYSTACK_WEBHOOK_URL = f"{url}/api/payments/callbacks/card"
    settings.SIMULATOR_CALLBACK_DELAY_SECONDS = SIMULATOR_DELAY_SECONDS
    yield SimpleNamespace(url=url)
    finish_pending_deliveries(cancel=True)


# Generous: CI's two cores are busy with the whole suite.
WAIT_SECONDS = 20.0


def wait_for(condition: Callable[[], T], timeout: float = WAIT_SECONDS) -> T:
    """``condition()`` (returned) once it is truthy, as a client polling the API would see it.

    Each look waits first for the simulators' callbacks to be sent and answered. Polling alone
    is not enough: on in-memory SQLite the live server's threads share the test's very
    connection, so a look taken while a callback is being written can see its transaction half
    done.
    """
    deadline = time.monotonic() + timeout
    while True:
        finish_pending_deliveries()
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {condition}")
        time.sleep(0.05)


def settled(reference: str, timeout: float = WAIT_SECONDS) -> Payment:
    """The payment once a callback has settled it."""
    wait_for(
        lambda: PaymentEvent.objects.filter(
            payment__reference=reference, outcome__in=[PaymentEvent.Outcome.CREDITED, PaymentEvent.Outcome.FAILED]
        ).exists(),
        timeout,
    )
    return Payment.objects.get(reference=reference)


def make_campaign(*, organizer: User, **fields: Any) -> Campaign:
    return Campaign.objects.create(
        organizer=organizer,
        organization=organization_choose_for_campaign(user=organizer, organization_id=None),
        title=fields.pop("title", "New church roof"),
        description="A roof before the long rains.",
        story="Our congregation of 300 meets under a leaking roof.",
        category="church",
        goal=500_000,
        end_date=timezone.localdate() + timedelta(days=60),
        **fields,
    )


def stk_callback(
    checkout_request_id: str, *, result_code: int = 0, amount: float = 1000, receipt: str = "SLK0000001"
) -> dict[str, Any]:
    """A Daraja STK callback body, shaped as Daraja sends it."""
    callback: dict[str, Any] = {
        "MerchantRequestID": "29115-34620561-1",
        "CheckoutRequestID": checkout_request_id,
        "ResultCode": result_code,
        "ResultDesc": "The service request is processed successfully."
        if result_code == 0
        else "Request cancelled by user",
    }
    if result_code == 0:
        callback["CallbackMetadata"] = {
            "Item": [
                {"Name": "Amount", "Value": amount},
                {"Name": "MpesaReceiptNumber", "Value": receipt},
                {"Name": "Balance"},
                {"Name": "TransactionDate", "Value": 20261122103000},
                {"Name": "PhoneNumber", "Value": 254708374149},
            ]
        }
    return {"Body": {"stkCallback": callback}}


CHECKOUT_REQUEST_ID = "ws_CO_TEST0001"


def pending_stk_intent(*, amount: int = 1000, checkout_request_id: str = CHECKOUT_REQUEST_ID, **fields: Any) -> Payment:
    """An intent as ``payment_stk_push_start`` leaves it once Daraja accepted the push."""
    return Payment.objects.create(
        provider=Payment.Provider.MPESA_STK,
        purpose=fields.pop("purpose", Payment.Purpose.DONATION),
        amount=amount,
        payer_phone="+254708374149",
        checkout_request_id=checkout_request_id,
        merchant_request_id="29115-34620561-1",
        **fields,
    )
