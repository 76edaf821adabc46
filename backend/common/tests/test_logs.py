import json
import logging
import sys

import pytest

from common.logs import JsonFormatter, PersonalDataFilter, RequestIdFilter, mask_personal_data, request_id_var


def record(msg: str, *args: object, **extra: object) -> logging.LogRecord:
    made = logging.LogRecord("harambee.test", logging.WARNING, __file__, 1, msg, args, None)
    for name, value in extra.items():
        setattr(made, name, value)
    return made


@pytest.mark.parametrize(
    "phone",
    ["+254712345678", "254712345678", "0712345678", "0112345678", "+254 712 345 678", "0712-345-678", "+254112345678"],
)
def test_kenyan_phone_numbers_are_masked_however_written(phone: str):
    assert mask_personal_data(f"STK Push to {phone} failed") == "STK Push to [phone] failed"


@pytest.mark.parametrize("email", ["wanjiru@example.com", "First.Last+pledges@mail.example.co.ke"])
def test_email_addresses_are_masked(email: str):
    assert mask_personal_data(f"Could not send e-mail to {email}.") == "Could not send e-mail to [email]."


@pytest.mark.parametrize(
    "text",
    [
        "Payment ABCD0712345678 credited",  # a reference, not a phone number
        "Took 1234567890123 ms",
        "Receipt HRB-261122-000123 for KES 2500",
        "GET /api/campaigns/712345678 200",
    ],
)
def test_references_receipts_and_other_numbers_are_left_alone(text: str):
    assert mask_personal_data(text) == text


def test_the_filter_masks_arguments_tracebacks_and_extra_fields():
    try:
        raise ValueError("refused for wanjiru@example.com")
    except ValueError:
        made = record("Could not send %s to %s", "SMS", "+254712345678", path="/x/0712345678")
        made.exc_info = sys.exc_info()

    assert PersonalDataFilter().filter(made)

    assert made.getMessage() == "Could not send SMS to [phone]"
    assert made.exc_text and "wanjiru@example.com" not in made.exc_text
    assert "refused for [email]" in made.exc_text
    assert made.path == "/x/[phone]"  # type: ignore[attr-defined]


def test_the_configured_console_handler_masks_and_stamps_every_record():
    # settings.LOGGING installs the filters on the handler, so they see records of every logger.
    handler = next(h for h in logging.getLogger().handlers if getattr(h, "name", "") == "console")
    made = record("STK Push for %s failed", "0712345678")

    assert handler.filter(made)

    line = handler.format(made)
    assert "0712345678" not in line
    assert "STK Push for [phone] failed" in line
    assert "[-]" in line  # the text format's request id, outside a request


def test_djangos_records_reach_only_the_masking_console_handler():
    # Django's default console handler (used under DEBUG) would print them again, unmasked.
    django_logger = logging.getLogger("django")

    assert django_logger.handlers == []
    assert django_logger.propagate


def test_the_request_id_is_on_every_record_and_a_dash_outside_requests():
    outside = record("hello")
    RequestIdFilter().filter(outside)
    token = request_id_var.set("abc123def456")
    try:
        inside = record("hello")
        RequestIdFilter().filter(inside)
    finally:
        request_id_var.reset(token)

    assert outside.request_id == "-"  # type: ignore[attr-defined]
    assert inside.request_id == "abc123def456"  # type: ignore[attr-defined]


def test_the_json_formatter_writes_one_object_with_the_request_fields():
    made = record("GET %s", "/api/x", request_id="r1", method="GET", path="/api/x", status=200, duration_ms=1.5)

    line = JsonFormatter().format(made)

    entry = json.loads(line)
    assert "\n" not in line
    assert entry["level"] == "WARNING"
    assert entry["logger"] == "harambee.test"
    assert entry["message"] == "GET /api/x"
    assert {key: entry[key] for key in ("request_id", "method", "path", "status", "duration_ms")} == {
        "request_id": "r1",
        "method": "GET",
        "path": "/api/x",
        "status": 200,
        "duration_ms": 1.5,
    }
    assert entry["time"].endswith("+00:00")


def test_the_json_formatter_includes_the_traceback():
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        made = record("failed")
        made.exc_info = sys.exc_info()

    assert "RuntimeError: boom" in json.loads(JsonFormatter().format(made))["exception"]
