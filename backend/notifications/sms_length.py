"""How much of one SMS a text takes: the rule the thank-you message is held to, on the server and in
the organizer's counter (``frontend/src/lib/smsLength.ts`` is the same rule, line for line).

An SMS carries 140 bytes. A text made only of the GSM 03.38 alphabet is sent 7 bits a character, so
160 characters fit. That alphabet is the basic table below (Latin letters and digits, common
punctuation, a few accented letters and Greek capitals) plus an extension table (``^ { } \\ [ ~ ] |
€`` and the form feed) whose characters are sent as an escape and the character, and so take two of
the 160. One character outside both (a curly quote, an ellipsis, an accent the table lacks, an
emoji) and the whole text goes as UCS-2, 16 bits a character: then 70 fit. A character beyond
UCS-2 (most emoji) is sent as two 16-bit halves (UTF-16) and takes two of the 70.

Typographic characters a keyboard or a word processor puts in without being asked (curly quotes, en
and em dashes, the ellipsis, a non-breaking space) would make a whole text UCS-2 for a character the
writer never chose: every SMS is sent with their GSM equivalents instead (``gsm_plain``), and the
length is that of the text as sent. Emoji and letters the alphabet lacks are the writer's choice:
they stay, and the text goes as UCS-2.

Longer texts are split into parts that the phone joins again, each part a little shorter (153 or 67)
to make room for the joining header; the thank-you must fit one SMS, so only the single-message
limits are needed here.
"""

from dataclasses import dataclass
from typing import Literal

# The GSM 03.38 basic table, in its order (0x00-0x7F), without 0x1B: the escape to the extension.
GSM_BASIC = frozenset(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
# The extension table: each is sent as the escape and itself, two septets.
GSM_EXTENSION = frozenset("\f^{}\\[~]|€")
GSM7_SINGLE = 160  # septets in one SMS
UCS2_SINGLE = 70  # 16-bit units in one SMS
# What each typographic character is sent as (frontend/src/lib/smsLength.ts has the same table).
GSM_PLAIN = str.maketrans(
    {
        "\u2018": "'",  # left single quote
        "\u2019": "'",  # right single quote, apostrophe
        "\u201a": "'",  # low single quote
        "\u201b": "'",  # reversed single quote
        "\u201c": '"',  # left double quote
        "\u201d": '"',  # right double quote
        "\u201e": '"',  # low double quote
        "\u201f": '"',  # reversed double quote
        "\u2010": "-",  # hyphen
        "\u2011": "-",  # non-breaking hyphen
        "\u2012": "-",  # figure dash
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2015": "-",  # horizontal bar
        "\u2212": "-",  # minus sign
        "\u2026": "...",  # ellipsis
        "\u00a0": " ",  # non-breaking space
        "\u2009": " ",  # thin space
        "\u202f": " ",  # narrow non-breaking space
    }
)


@dataclass(frozen=True)
class SmsLength:
    encoding: Literal["gsm7", "ucs2"]
    used: int  # septets (GSM-7) or 16-bit units (UCS-2)
    limit: int  # what one SMS holds in that encoding
    outside_alphabet: tuple[str, ...]  # the characters that made it UCS-2, each once, in order

    @property
    def remaining(self) -> int:
        """What is left of one SMS; negative when the text is too long for one."""
        return self.limit - self.used

    @property
    def fits_one_sms(self) -> bool:
        return self.used <= self.limit


def gsm_plain(text: str) -> str:
    """``text`` as sent: typographic characters replaced by their GSM equivalents (``GSM_PLAIN``)."""
    return text.translate(GSM_PLAIN)


def sms_length(text: str) -> SmsLength:
    """How much of one SMS ``text`` takes as sent (``gsm_plain``), and in which encoding it goes."""
    text = gsm_plain(text)
    outside = tuple(dict.fromkeys(char for char in text if char not in GSM_BASIC and char not in GSM_EXTENSION))
    if outside:
        return SmsLength("ucs2", len(text.encode("utf-16-le")) // 2, UCS2_SINGLE, outside)
    return SmsLength("gsm7", sum(2 if char in GSM_EXTENSION else 1 for char in text), GSM7_SINGLE, ())
