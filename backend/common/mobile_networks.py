"""Which Kenyan mobile network a number belongs to, from its prefix: the default way to pay.

Kenya's numbering plan gives each operator blocks of prefixes. A number moved to another network
(mobile number portability) keeps its prefix, so this is a default the payer can change, never a
rule: the pledge page and the donation dialog preselect Airtel Money for an Airtel prefix and
M-Pesa for every other number. (The USSD gateway knows better: it tells the caller's network,
``networkCode`` 63903 for Airtel Kenya, see ``ussd``.)

Airtel Kenya's blocks (Communications Authority of Kenya numbering plan): 0730-0739, 0750-0756,
0762, 0780-0789 and 0100-0102 (the 01x range opened in 2019). The rule below compares the
significant digits after the leading 0 / +254.
"""

import re

AIRTEL_PREFIXES: tuple[str, ...] = (
    *(f"73{digit}" for digit in range(10)),
    *(f"75{digit}" for digit in range(7)),
    "762",
    *(f"78{digit}" for digit in range(10)),
    "100",
    "101",
    "102",
)
# Africa's Talking's networkCode (MCC + MNC) of a caller on Airtel Kenya.
AIRTEL_NETWORK_CODE = "63903"

_KENYAN = re.compile(r"^(?:\+?254|0)?([17]\d{8})$")


def significant_digits(number: str) -> str:
    """The nine digits after 0 / +254 of a Kenyan mobile number ('' if it is not one)."""
    match = _KENYAN.match(re.sub(r"[\s\-()]", "", number))
    return match.group(1) if match else ""


def is_airtel(number: str) -> bool:
    """Whether ``number`` (any usual Kenyan form) is in one of Airtel Kenya's blocks."""
    digits = significant_digits(number)
    return bool(digits) and digits.startswith(AIRTEL_PREFIXES)


def airtel_number(number: str) -> str:
    """``number`` in E.164 (+2547XXXXXXXX) if it is an Airtel Kenya number, else ''."""
    return f"+254{significant_digits(number)}" if is_airtel(number) else ""


def airtel_msisdn(number: str) -> str:
    """The MSISDN Airtel's API takes: the nine digits without the country code ('' if not Kenyan)."""
    return significant_digits(number)
