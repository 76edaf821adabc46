"""Paying a pledge, or giving, from an Airtel line: the Airtel Money USSD push to the organization's
Airtel Money account (``payments.airtel``). The pledge code travels as the push's reference and the
payment is matched to the pledge by it when it succeeds, exactly as an M-Pesa PIN prompt's
account reference is (``services._pledge_payments_match``). The limits are M-Pesa's: the same
per-pledge, per-phone and per-address counters, so switching network buys no extra prompts."""

from accounts.models import User
from payments.models import Payment
from pledges.services.core import _airtel_prompt_channel
from pledges.services.paying import _pledge_for_prompt, _pledge_of_phone, _pledge_prompt


def pledge_airtel_push_start(
    *, code: str, phone: str, amount: int | None, idempotency_key: str, viewer: User | None, client_ip: str
) -> Payment:
    """'Pay with Airtel Money': the USSD push for the amount due (or ``amount``, up to what is left) to
    ``phone`` (default: the pledge's), with the pledge code as reference."""
    pledge, phone = _pledge_for_prompt(code=code, phone=phone, client_ip=client_ip)
    return _pledge_prompt(
        pledge, phone, amount=amount, idempotency_key=idempotency_key, viewer=viewer, channel=_airtel_prompt_channel
    )


def pledge_airtel_push_by_phone(*, pledge_id: int, phone: str, amount: int, idempotency_key: str) -> Payment:
    """The USSD menu's 'Pay a pledge' for a caller on Airtel: the push goes to the number the gateway gave."""
    pledge = _pledge_of_phone(pledge_id=pledge_id, phone=phone)
    return _pledge_prompt(
        pledge, phone, amount=amount, idempotency_key=idempotency_key, viewer=None, channel=_airtel_prompt_channel
    )
