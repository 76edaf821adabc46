"""Log records: the request id on every one, personal data masked, JSON in production.

Installed on the console handler in ``settings.LOGGING``, so the filters see every record that
reaches it, whichever logger (Django's, ours, a library's) wrote it.
"""

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime

# Set by ``common.middleware.RequestIdMiddleware`` for the length of a request.
request_id_var: ContextVar[str] = ContextVar("request_id", default="-")

# Kenyan mobile numbers as people and providers write them: +254 712 345 678, 254712345678,
# 0712345678, 0112-345-678. Not inside a longer run of letters or digits (receipts, references).
PHONE_PATTERN = re.compile(r"(?<![\w+])(?:\+?254[\s-]?|0)[17]\d{2}[\s-]?\d{3}[\s-]?\d{3}(?!\w)")
EMAIL_PATTERN = re.compile(r"[\w.%+-]+@[\w-]+(?:\.[\w-]+)+", re.ASCII)
MASKED_PHONE = "[phone]"
MASKED_EMAIL = "[email]"

# What a LogRecord carries by itself; any other attribute came from ``extra=``.
_RECORD_ATTRIBUTES = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
# Extra attributes the JSON formatter writes out (the request middleware's access line sets them).
JSON_EXTRA_FIELDS = ("request_id", "method", "path", "status", "duration_ms")


# A pledge's code opens its page and can start an M-Pesa prompt on it: a key, kept out of logs.
PLEDGE_CODE_IN_PATH = re.compile(r"(/pledges/)[0-9A-Za-z]{7}(?=/|$)")


def path_for_log(path: str) -> str:
    """``path`` with a pledge code (``/api/pledges/K7Q2M9X``, ``/pledges/K7Q2M9X``) masked."""
    return PLEDGE_CODE_IN_PATH.sub(r"\1[code]", path)


def mask_personal_data(text: str) -> str:
    """``text`` with every e-mail address and Kenyan phone number replaced by a placeholder."""
    return PHONE_PATTERN.sub(MASKED_PHONE, EMAIL_PATTERN.sub(MASKED_EMAIL, text))


class PersonalDataFilter(logging.Filter):
    """Masks e-mail addresses and phone numbers in the message, its traceback and string extras.

    The message is rendered here (``msg % args``) so that an address passed as an argument is
    masked too; the traceback is rendered once and cached on the record, as formatters do.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = mask_personal_data(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_personal_data(record.exc_text)
        if record.stack_info:
            record.stack_info = mask_personal_data(record.stack_info)
        for name, value in vars(record).items():
            if name not in _RECORD_ATTRIBUTES and isinstance(value, str):
                setattr(record, name, mask_personal_data(value))
        return True


class RequestIdFilter(logging.Filter):
    """Stamps every record with the id of the request being served ('-' outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line, for log collectors: time, level, logger, message, the request
    fields when present, and the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({name: getattr(record, name) for name in JSON_EXTRA_FIELDS if hasattr(record, name)})
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
