import pytest

from accounts import validators

PHONE_MESSAGE = "Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)"
NEW_PASSWORD_MESSAGE = "Password must be at least 8 characters, include a symbol, and at least one letter"
CHANGED_PASSWORD_MESSAGE = "Password must be at least 8 characters and include numbers, letters, and symbols."


@pytest.mark.parametrize(
    ("phone", "e164"),
    [
        ("+254712345678", "+254712345678"),
        ("0712345678", "+254712345678"),
        ("0112345678", "+254112345678"),
        ("+254112345678", "+254112345678"),
        ("0712 345 678", "+254712345678"),
        ("+254 712 345 678", "+254712345678"),
        ("0712-345-678", "+254712345678"),
    ],
)
def test_kenyan_phone_forms_are_accepted_and_stored_as_e164(phone, e164):
    assert validators.check_kenyan_phone(phone) is None
    assert validators.normalize_kenyan_phone(phone) == e164


@pytest.mark.parametrize(
    "phone",
    [
        "",
        "712345678",  # no +254 or 0
        "254712345678",  # country code without +
        "0812345678",  # neither 1 nor 7 after the prefix
        "+254812345678",
        "071234567",  # one digit short
        "07123456789",  # one digit too many
        "+2540712345678",  # both prefixes
        "+255712345678",  # Tanzania
        "07123a5678",
    ],
)
def test_other_phone_numbers_are_refused_with_the_kenyan_example_message(phone):
    assert validators.check_kenyan_phone(phone) == PHONE_MESSAGE


@pytest.mark.parametrize("id_number", ["123456", "123456789", " 1234567 "])
def test_id_numbers_of_6_to_9_characters_are_accepted(id_number):
    assert validators.check_id_number(id_number) is None


@pytest.mark.parametrize("id_number", ["", "12345", "1234567890"])
def test_id_numbers_outside_6_to_9_characters_are_refused(id_number):
    assert validators.check_id_number(id_number) == "ID number must be 6-9 characters"


@pytest.mark.parametrize("password", ["abcdefg#", "Harambee#2026", "pass word!"])
def test_new_password_needs_8_characters_a_letter_and_a_symbol(password):
    assert validators.check_new_password(password, None) is None


@pytest.mark.parametrize(
    "password",
    [
        "abcdefgh1",  # no symbol
        "12345678#",  # no letter
        "abc#12",  # too short
        "abcd efgh",  # a space is not a symbol
    ],
)
def test_new_password_without_a_symbol_a_letter_or_8_characters_is_refused(password):
    assert validators.check_new_password(password, None) == NEW_PASSWORD_MESSAGE


def test_changed_password_also_needs_a_digit():
    assert validators.check_changed_password("abcdefg#", None) == CHANGED_PASSWORD_MESSAGE
    assert validators.check_changed_password("abcdef1#", None) is None


@pytest.mark.parametrize("password", ["abcdefgh1", "12345678#", "ab1#"])
def test_changed_password_without_a_symbol_a_letter_or_8_characters_is_refused(password):
    assert validators.check_changed_password(password, None) == CHANGED_PASSWORD_MESSAGE


@pytest.mark.parametrize(("email", "message"), [("", "Email is required"), ("   ", "Email is required")])
def test_blank_email_is_required(email, message):
    assert validators.check_email(email) == message


@pytest.mark.parametrize("email", ["grace", "grace@", "@example.com", "grace@example", "grace @example.com"])
def test_malformed_email_is_refused(email):
    assert validators.check_email(email) == "Please enter a valid email address"


def test_well_formed_email_with_surrounding_spaces_is_accepted():
    assert validators.check_email(" grace@example.com ") is None


@pytest.mark.parametrize("url", ["", "https://example.com/me.png", "http://example.com/a?b=c"])
def test_avatar_url_may_be_blank_or_http_or_https(url):
    assert validators.check_avatar_url(url) is None


@pytest.mark.parametrize("url", ["example.com/me.png", "ftp://example.com/me.png", "javascript:alert(1)", "https://"])
def test_avatar_url_with_another_scheme_is_refused(url):
    assert validators.check_avatar_url(url) == "Please enter a valid URL starting with http:// or https://"


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Achieng Odhiambo", "Achieng Odhiambo"),
        ("  Achieng \t\n Odhiambo  ", "Achieng Odhiambo"),
        ("\uff21\uff43\uff48\uff49\uff45\uff4e\uff47", "Achieng"),  # full-width letters
        ("Ach\u200bieng\u00ad", "Achieng"),  # zero-width space, soft hyphen
        ("\u202eAchieng\u202c", "Achieng"),  # a direction override
        ("O'Neil-Wambui Jr.", "O'Neil-Wambui Jr."),
        ("Zoë Nyambura", "Zoë Nyambura"),
    ],
)
def test_names_are_normalised_and_lose_invisible_characters(typed, stored):
    assert validators.normalize_name(typed) == stored


@pytest.mark.parametrize("typed", ["", "   ", "\u200b\u200c\u200d", "\ufeff", "...", "12345", "\x00\x1b"])
def test_a_name_without_a_letter_is_no_name(typed):
    assert validators.normalize_name(typed) == ""
