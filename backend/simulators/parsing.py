import json
from decimal import Decimal, InvalidOperation
from typing import Any

from django.http import HttpRequest


def json_body(request: HttpRequest) -> dict[str, Any] | None:
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def whole_amount(value: Any) -> int | None:
    """A positive whole number given as 500, "500" or 500.0; None for anything else."""
    if isinstance(value, bool):
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return None
    if not amount.is_finite() or amount != amount.to_integral_value() or amount < 1:
        return None
    return int(amount)
