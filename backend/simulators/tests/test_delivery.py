"""A test can wait for (or drop) every callback to come, so none is still writing when it reads or ends."""

import threading
import time

import pytest

from simulators import delivery


def test_finishing_with_cancel_waits_for_the_callback_in_flight_and_cancels_the_one_it_schedules(monkeypatch):
    sending, sent = threading.Event(), []

    def send(url, content, headers):
        sending.set()
        time.sleep(0.1)  # still in flight when the test stops the deliveries
        if url == "/stk-auto-answer":
            delivery.deliver_later("/stk-callback", b"{}", delay=60)
        sent.append(url)

    monkeypatch.setattr(delivery, "_send", send)
    delivery.deliver_later("/stk-auto-answer", b"{}", delay=0)
    assert sending.wait(timeout=10)

    delivery.finish_pending_deliveries(cancel=True)

    assert sent == ["/stk-auto-answer"]
    assert not delivery._pending


@pytest.mark.parametrize("deliver", ["stk", "c2b"])
def test_finishing_with_cancel_cancels_callbacks_not_sent_yet(monkeypatch, deliver):
    sent = []
    monkeypatch.setattr(delivery, "_send", lambda url, content, headers: sent.append(url))
    if deliver == "stk":
        delivery.deliver_later("/stk-callback", b"{}", delay=60)
    else:
        delivery.deliver_c2b_later(
            validation_url="/validate", confirmation_url="/confirm", body={}, response_type="Completed", delay=60
        )

    delivery.finish_pending_deliveries(cancel=True)

    assert sent == []
    assert not delivery._pending


def test_finishing_waits_for_every_callback_and_the_ones_they_schedule(monkeypatch):
    sent = []

    def send(url, content, headers):
        if url == "/stk-auto-answer":
            delivery.deliver_later("/stk-callback", b"{}", delay=0.1)
        sent.append(url)

    monkeypatch.setattr(delivery, "_send", send)
    delivery.deliver_later("/stk-auto-answer", b"{}", delay=0.1)

    delivery.finish_pending_deliveries()

    assert sent == ["/stk-auto-answer", "/stk-callback"]
    assert not delivery._pending
