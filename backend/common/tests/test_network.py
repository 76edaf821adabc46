"""The check that no adapter goes out to the network from inside a database transaction."""

import logging
import threading
from collections.abc import Callable

import pytest
from django.db import transaction

from common.network import NetworkCallInTransaction, network_call_check
from common.page_rendering import page_render
from notifications.models import NotificationLog
from notifications.outbox import notification_deliver
from payments.providers.daraja import DarajaClient
from payments.providers.paystack import PaystackClient

pytestmark = pytest.mark.django_db

NOWHERE = "http://127.0.0.1:9"  # the discard port: a call that got through would be refused at once


def _message(channel: str) -> Callable[[], object]:
    log = NotificationLog.objects.create(
        channel=channel,
        recipient="+254712345678" if channel == NotificationLog.Channel.SMS else "wanjiru@example.com",
        template=f"{channel}/test",
        subject="Test",
        body="Test",
    )
    return lambda: notification_deliver(log_id=log.pk)


ADAPTER_CALLS: dict[str, Callable[[], Callable[[], object]]] = {
    "Daraja's token": lambda: DarajaClient.from_settings().access_token,
    "Daraja's API": lambda: lambda: DarajaClient.from_settings().register_pull(callback_url=f"{NOWHERE}/pull"),
    "Paystack": lambda: lambda: PaystackClient.from_settings().verify("HRB000000001"),
    "Africa's Talking": lambda: _message(NotificationLog.Channel.SMS),
    "the mail server": lambda: _message(NotificationLog.Channel.EMAIL),
    "the page renderer": lambda: lambda: page_render(path="/", language="en", queries_json="[]"),
}


@pytest.fixture(autouse=True)
def _nothing_reachable(settings) -> None:
    settings.MPESA_BASE_URL = f"{NOWHERE}/simulators/daraja"
    settings.PAYSTACK_BASE_URL = f"{NOWHERE}/simulators/paystack"
    settings.RENDERER_URL = NOWHERE


@pytest.mark.parametrize("adapter", ADAPTER_CALLS)
def test_every_adapter_refuses_to_go_out_from_inside_a_transaction(adapter):
    call = ADAPTER_CALLS[adapter]()

    with pytest.raises(NetworkCallInTransaction, match="inside a database transaction"), transaction.atomic():
        call()


def test_a_call_outside_the_codes_transactions_goes_out():
    """The test's own wrapping transaction (Django's TestCase) is not the code's."""
    network_call_check("Daraja /oauth/v1/generate")


def test_a_transaction_another_thread_opened_on_a_shared_connection_is_not_this_threads():
    """The live server's threads share the test's in-memory SQLite connection: a block one of them
    holds open does not make this thread's call one from inside a transaction."""
    opened, finish = threading.Event(), threading.Event()

    def hold_a_transaction() -> None:
        with transaction.atomic():
            opened.set()
            finish.wait(5)

    connection = transaction.get_connection()
    connection.inc_thread_sharing()
    other = threading.Thread(target=lambda: _in_thread_sharing(connection, hold_a_transaction))
    try:
        other.start()
        assert opened.wait(5)
        network_call_check("Daraja /oauth/v1/generate")
    finally:
        finish.set()
        other.join(5)
        connection.dec_thread_sharing()


def _in_thread_sharing(connection, work: Callable[[], None]) -> None:
    from django.db import connections

    connections["default"] = connection
    work()


def test_in_production_a_call_from_inside_a_transaction_is_logged_not_refused(settings, caplog):
    settings.IS_PRODUCTION = True

    with caplog.at_level(logging.ERROR, logger="common.network"), transaction.atomic():
        network_call_check("Paystack /subaccount")

    assert "Paystack /subaccount was called inside a database transaction" in caplog.text
