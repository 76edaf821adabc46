// How much of one SMS a text takes: the rule the server holds the thank-you message to
// (backend/notifications/sms_length.py, explained there), here for the organizer's counter.
//
// In brief: a text made only of the GSM 03.38 alphabet goes 7 bits a character, 160 to an SMS, the
// extension characters (^ { } \ [ ~ ] | € and the form feed) taking two; one character outside it
// makes the whole text UCS-2, 16 bits a character, 70 to an SMS, a character beyond UCS-2 (most
// emoji) taking two. Typographic characters the writer did not choose (curly quotes, dashes, the
// ellipsis, non-breaking spaces) are sent as their GSM equivalents, and counted as sent.

// The GSM 03.38 basic table, in its order (0x00-0x7F), without 0x1B: the escape to the extension.
const GSM_BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
// The extension table: each is sent as the escape and itself, two septets.
const GSM_EXTENSION = new Set("\f^{}\\[~]|€");
// What each typographic character is sent as (GSM_PLAIN in the server's rule: the same table).
const GSM_PLAIN: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201b": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u201f": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2026": "...",
  "\u00a0": " ",
  "\u2009": " ",
  "\u202f": " ",
};
const GSM7_SINGLE = 160;
const UCS2_SINGLE = 70;

export type SmsLength = {
  encoding: "gsm7" | "ucs2";
  /** Septets (GSM-7) or 16-bit units (UCS-2). */
  used: number;
  /** What one SMS holds in that encoding. */
  limit: number;
  /** What is left of one SMS; negative when the text is too long for one. */
  remaining: number;
  /** The characters that made it UCS-2, each once, in order. */
  outsideAlphabet: string[];
};

/** The text as sent: typographic characters replaced by their GSM equivalents. */
export function gsmPlain(text: string): string {
  return [...text].map((char) => GSM_PLAIN[char] ?? char).join("");
}

/** How much of one SMS the text takes as sent (gsmPlain), and in which encoding it goes. */
export function smsLength(written: string): SmsLength {
  const text = gsmPlain(written);
  const characters = [...text]; // code points, as Python iterates a str
  const outsideAlphabet = [
    ...new Set(characters.filter((char) => !GSM_BASIC.has(char) && !GSM_EXTENSION.has(char))),
  ];
  if (outsideAlphabet.length > 0) {
    // A JavaScript string's length counts 16-bit units: what UCS-2 (UTF-16) sends.
    return {
      encoding: "ucs2",
      used: text.length,
      limit: UCS2_SINGLE,
      remaining: UCS2_SINGLE - text.length,
      outsideAlphabet,
    };
  }
  const used = characters.reduce((sum, char) => sum + (GSM_EXTENSION.has(char) ? 2 : 1), 0);
  return { encoding: "gsm7", used, limit: GSM7_SINGLE, remaining: GSM7_SINGLE - used, outsideAlphabet };
}
