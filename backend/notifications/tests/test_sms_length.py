"""The SMS length rule, as a table (``frontend/src/lib/smsLength.test.ts`` has the same rows)."""

import pytest

from notifications.sms_length import gsm_plain, sms_length

EURO_80 = "€" * 80


@pytest.mark.parametrize(
    ("text", "encoding", "used", "remaining", "outside"),
    [
        ("", "gsm7", 0, 160, ()),
        ("Asante kwa kutoa! Mungu akubariki.", "gsm7", 34, 126, ()),
        ("x" * 160, "gsm7", 160, 0, ()),
        ("x" * 161, "gsm7", 161, -1, ()),
        ("Ksh 500 @ 10% - £ & ¥ è Ñ ü ¿ Δ Ω", "gsm7", 33, 127, ()),
        ("Line one\nLine two", "gsm7", 17, 143, ()),
        ("{church} [roof] ~ | ^ \\", "gsm7", 31, 129, ()),  # 23 characters, 8 of them extension ones: two each
        (EURO_80, "gsm7", 160, 0, ()),
        (EURO_80 + "x", "gsm7", 161, -1, ()),
        # Typographic characters go as their GSM equivalents: the length is the text's as sent.
        ("It\u2019s done", "gsm7", 9, 151, ()),  # a curly apostrophe
        ("Thanks…", "gsm7", 9, 151, ()),  # the ellipsis goes as three dots
        ("“a” “b”", "gsm7", 7, 153, ()),
        ("Harambee Night \u2013 Roofing \u2014 2026", "gsm7", 31, 129, ()),
        ("x" * 159 + "\u2019", "gsm7", 160, 0, ()),
        ("Café ç", "ucs2", 6, 64, ("ç",)),  # é is GSM, lower-case ç is not
        ("Asante 🙏", "ucs2", 9, 61, ("🙏",)),  # beyond UCS-2: two 16-bit halves
        ("x" * 69 + "ç", "ucs2", 70, 0, ("ç",)),
        ("x" * 70 + "ç", "ucs2", 71, -1, ("ç",)),
        ("\x1b", "ucs2", 1, 69, ("\x1b",)),  # the escape itself is no character to send
    ],
)
def test_a_text_takes_septets_in_the_gsm_alphabet_else_16_bit_units(text, encoding, used, remaining, outside):
    length = sms_length(text)

    assert (length.encoding, length.used, length.remaining, length.outside_alphabet) == (
        encoding,
        used,
        remaining,
        outside,
    )
    assert length.fits_one_sms == (remaining >= 0)


def test_typographic_characters_are_sent_as_their_gsm_equivalents_and_the_writer_s_own_stay():
    assert (
        gsm_plain("\u201cHarambee Night \u2013 Roofing\u201d \u2014 it\u2019s on\u2026 10\u00a0am")
        == '"Harambee Night - Roofing" - it\'s on... 10 am'
    )
    assert gsm_plain("Asante 🙏 ç") == "Asante 🙏 ç"
