"""Champion codes: a champion's M-Pesa account number, also the last part of their page's address.

Five random characters and a check character, from pledge codes' alphabet of 31 (no look-alikes: no
0/O, 1/I/L). The check makes the sum of each character's value times its position (1 to 6) a multiple
of 31, so every single mistyped character and every swap of two neighbours is caught. Six characters,
never seven: a champion's code can never be a pledge's (``pledges.codes``), so a paybill payment's
account number names one or the other, never both.
"""

import re
import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
RANDOM_LENGTH = 5  # 31**5: almost 29 million codes
CODE_LENGTH = RANDOM_LENGTH + 1
_INDEX = {char: index for index, char in enumerate(ALPHABET)}
_BASE = len(ALPHABET)
_CHECK_WEIGHT_INVERSE = pow(CODE_LENGTH, -1, _BASE)
_SEPARATORS = re.compile(r"[\s\-_.#]")


def _weighted_sum(chars: str) -> int:
    return sum(position * _INDEX[char] for position, char in enumerate(chars, start=1))


def check_character(payload: str) -> str:
    return ALPHABET[-_weighted_sum(payload) * _CHECK_WEIGHT_INVERSE % _BASE]


def is_valid_code(value: str) -> bool:
    return len(value) == CODE_LENGTH and all(char in _INDEX for char in value) and _weighted_sum(value) % _BASE == 0


def new_code() -> str:
    """A new code, with at least one letter: a code of digits only would read as a campaign number
    where both may stand (a PLEDGE text: ``sms_keywords.keywords``)."""
    while True:
        payload = "".join(secrets.choice(ALPHABET) for _ in range(RANDOM_LENGTH))
        code = payload + check_character(payload)
        if not code.isdigit():
            return code


def normalize(account_number: str) -> str:
    """What a payer typed, as a code is written: upper case, without spaces, dashes, dots or hashes."""
    return _SEPARATORS.sub("", account_number).upper()
