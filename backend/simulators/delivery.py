"""Callbacks leave the simulators from a background thread after a delay, over real HTTP,
like the real services' own (a request never waits for its callback).

The threads do nothing but HTTP: every state change happens in a request handler, so a
thread never shares a database connection with the web server (or with a test). They are
tracked until they end, so a test can wait for them all (``finish_pending_deliveries``) before
it reads what they lead to, or clears the database they write to.
"""

import json
import logging
import threading
from typing import Any

import httpx

logger = logging.getLogger(__name__)


def _send(url: str, content: bytes, headers: dict[str, str]) -> httpx.Response | None:
    try:
        response = httpx.post(url, content=content, headers={"Content-Type": "application/json", **headers}, timeout=10)
    except httpx.HTTPError as exc:
        logger.warning("Simulator callback to %s failed: %s", url, exc)
        return None
    logger.info("Simulator callback to %s answered %s", url, response.status_code)
    return response


_pending: set[threading.Timer] = set()
_pending_lock = threading.Lock()


def _later(delay: float, function: Any, *args: Any) -> None:
    def deliver() -> None:
        try:
            function(*args)
        finally:
            with _pending_lock:
                _pending.discard(timer)

    timer = threading.Timer(delay, deliver)
    timer.daemon = True
    with _pending_lock:
        _pending.add(timer)
    timer.start()


def finish_pending_deliveries(*, cancel: bool = False) -> None:
    """Wait until every callback scheduled is sent and answered, including those the answering
    requests schedule in turn (the request answering an STK prompt schedules its callback).
    With ``cancel``, callbacks not sent yet are dropped instead of waited for.

    When this returns no request from a simulator is in flight: the server answers only after
    its handler (and the tasks the immediate backend runs on commit) has finished writing.
    """
    while True:
        with _pending_lock:
            timers = list(_pending)
        if not timers:
            return
        for timer in timers:
            if cancel:
                timer.cancel()
            timer.join()
            with _pending_lock:
                _pending.discard(timer)  # a cancelled one never ran ``deliver``, which removes it


def deliver_later(url: str, content: bytes, *, delay: float, headers: dict[str, str] | None = None) -> None:
    """POST ``content`` (encoded JSON, so a signature over it stays valid) after ``delay`` seconds."""
    _later(delay, _send, url, content, headers or {})


def _validate_then_confirm(validation_url: str, confirmation_url: str, content: bytes, response_type: str) -> None:
    answer = _send(validation_url, content, {})
    if answer is None:
        # No answer from the validation URL: the registered ResponseType decides.
        accepted = response_type == "Completed"
    else:
        try:
            accepted = str(answer.json().get("ResultCode")) == "0"
        except (ValueError, AttributeError):
            accepted = False
    if accepted:
        _send(confirmation_url, content, {})


def deliver_c2b_later(
    *, validation_url: str, confirmation_url: str, body: dict[str, Any], response_type: str, delay: float
) -> None:
    """Ask the validation URL, then (if it accepts) post the same body to the confirmation URL."""
    _later(delay, _validate_then_confirm, validation_url, confirmation_url, json.dumps(body).encode(), response_type)


def _validate_then_confirm_each(
    validation_url: str, confirmation_url: str, bodies: list[bytes], response_type: str
) -> None:
    for content in bodies:
        _validate_then_confirm(validation_url, confirmation_url, content, response_type)


def deliver_c2b_series_later(
    *, validation_url: str, confirmation_url: str, bodies: list[dict[str, Any]], response_type: str, delay: float
) -> None:
    """``deliver_c2b_later`` for several payments, one after another in their order (a standing
    order's executions, as a clock moved forward a year runs them)."""
    encoded = [json.dumps(body).encode() for body in bodies]
    _later(delay, _validate_then_confirm_each, validation_url, confirmation_url, encoded, response_type)
