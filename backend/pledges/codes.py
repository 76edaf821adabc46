"""Pledge codes: the short M-Pesa account number of each pledge.

Six random characters and a check character, from an alphabet of 31 without look-alikes (no
0/O, 1/I/L). The check makes the sum of each character's value times its position (1 to 7) a
multiple of 31; as 31 is prime, every single mistyped character and every swap of two
characters breaks it. So a typo never lands on somebody else's pledge: it stays unmatched, and
``near_codes`` finds the code it was probably meant to be.
"""

import re
import secrets

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_RANDOM_LENGTH = 6  # 31**6: almost 900 million codes
CODE_LENGTH = CODE_RANDOM_LENGTH + 1
_INDEX = {char: index for index, char in enumerate(CODE_ALPHABET)}
_BASE = len(CODE_ALPHABET)
_CHECK_WEIGHT_INVERSE = pow(CODE_LENGTH, -1, _BASE)
# What payers put around an account number: spaces, dashes, dots, a hash.
_SEPARATORS = re.compile(r"[\s\-_.#]")


def _weighted_sum(chars: str) -> int:
    return sum(position * _INDEX[char] for position, char in enumerate(chars, start=1))


def check_character(payload: str) -> str:
    """The seventh character that makes the weighted sum of the code a multiple of 31."""
    return CODE_ALPHABET[-_weighted_sum(payload) * _CHECK_WEIGHT_INVERSE % _BASE]


def is_valid_code(value: str) -> bool:
    return len(value) == CODE_LENGTH and all(char in _INDEX for char in value) and _weighted_sum(value) % _BASE == 0


def new_code() -> str:
    payload = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_RANDOM_LENGTH))
    return payload + check_character(payload)


def normalize(account_number: str) -> str:
    """What a payer typed, as a code would be written: upper case, without separators."""
    return _SEPARATORS.sub("", account_number).upper()


def near_codes(account_number: str) -> set[str]:
    """Valid codes one typing mistake away from ``account_number``: one character wrong, missing,
    extra, or two neighbours swapped. At most a few dozen; empty for text that is nothing like a code."""
    typed = normalize(account_number)
    if abs(len(typed) - CODE_LENGTH) > 1:
        return set()
    candidates: set[str] = set()
    for i in range(len(typed) + 1):
        for char in CODE_ALPHABET:
            candidates.add(typed[:i] + char + typed[i:])  # a character was left out
            if i < len(typed):
                candidates.add(typed[:i] + char + typed[i + 1 :])  # a wrong character
        if i < len(typed):
            candidates.add(typed[:i] + typed[i + 1 :])  # an extra character
        if i < len(typed) - 1:
            candidates.add(typed[:i] + typed[i + 1] + typed[i] + typed[i + 2 :])  # swapped neighbours
    candidates.discard(typed)
    return {candidate for candidate in candidates if is_valid_code(candidate)}
