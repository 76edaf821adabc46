import random

import pytest

from pledges import codes

SAMPLE = [codes.new_code() for _ in range(200)]


def test_new_codes_are_seven_unambiguous_characters_with_a_valid_check_character():
    for code in SAMPLE:
        assert len(code) == 7
        assert set(code) <= set(codes.CODE_ALPHABET)
        assert codes.is_valid_code(code)
    assert not set("01OIL") & set(codes.CODE_ALPHABET)


# Named by position, not by the code: the sample is new in each process, and every pytest-xdist worker
# must collect the same test ids.
@pytest.mark.parametrize("code", SAMPLE[:50], ids=[f"sample-{i}" for i in range(50)])
def test_every_single_mistyped_character_makes_the_code_invalid(code):
    for position in range(len(code)):
        for char in codes.CODE_ALPHABET:
            if char != code[position]:
                assert not codes.is_valid_code(code[:position] + char + code[position + 1 :])


def test_every_swap_of_two_characters_is_caught():
    for code in SAMPLE:
        for i in range(len(code)):
            for j in range(i + 1, len(code)):
                if code[i] != code[j]:
                    swapped = code[:i] + code[j] + code[i + 1 : j] + code[i] + code[j + 1 :]
                    assert not codes.is_valid_code(swapped), (code, swapped)


@pytest.mark.parametrize(
    ("typed", "expected"), [(" ab2-cd3 ", "AB2CD3"), ("ab#2 c.d_3", "AB2CD3"), ("HARAMBEE", "HARAMBEE")]
)
def test_what_payers_type_is_normalized_like_a_code(typed, expected):
    assert codes.normalize(typed) == expected


def test_a_code_with_one_typo_is_near_the_original_code():
    rng = random.Random(6)  # noqa: S311 - reproducible typos, not secrets
    for code in SAMPLE[:50]:
        position = rng.randrange(len(code))
        wrong = rng.choice([char for char in codes.CODE_ALPHABET if char != code[position]])
        typos = [
            code[:position] + wrong + code[position + 1 :],  # wrong character
            code[:position] + code[position + 1 :],  # left out
            code[:position] + wrong + code[position:],  # one too many
        ]
        for typo in typos:
            assert code in codes.near_codes(typo.lower()), (code, typo)


def test_text_that_is_nothing_like_a_code_has_no_near_codes():
    assert codes.near_codes("harambee church") == set()
    assert codes.near_codes("") == set()
