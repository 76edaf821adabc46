// How much of one SMS a text takes: the rule the server holds the thank-you message to
// (backend/notifications/sms_length.py, explained there), here for the organizer's counter.
//
// In brief: a text made only of the GSM 03.38 alphabet goes 7 bits a character, 160 to an SMS, the
// extension characters (^ { } \ [ ~ ] | € and the form feed) taking two; one character outside it
// makes the whole text UCS-2, 16 bits a character, 70 to an SMS, a character beyond UCS-2 (most
// emoji) taking two.

// The GSM 03.38 basic table, in its order (0x00-0x7F), without 0x1B: the escape to the extension.
const GSM_BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
// The extension table: each is sent as the escape and itself, two septets.
const GSM_EXTENSION = new Set("\f^{}\\[~]|€");
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

export function smsLength(text: string): SmsLength {
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
