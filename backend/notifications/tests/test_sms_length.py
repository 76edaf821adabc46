"""The SMS length rule, as a table (``frontend/src/lib/smsLength.test.ts`` has the same rows)."""

import pytest

from notifications.sms_length import sms_length

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
        ("It\u2019s done", "ucs2", 9, 61, ("\u2019",)),  # a curly apostrophe
        ("Thanks…", "ucs2", 7, 63, ("…",)),
        ("Café ç", "ucs2", 6, 64, ("ç",)),  # é is GSM, lower-case ç is not
        ("Asante 🙏", "ucs2", 9, 61, ("🙏",)),  # beyond UCS-2: two 16-bit halves
        ("“a” “b”", "ucs2", 7, 63, ("“", "”")),
        ("x" * 69 + "\u2019", "ucs2", 70, 0, ("\u2019",)),
        ("x" * 70 + "\u2019", "ucs2", 71, -1, ("\u2019",)),
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
