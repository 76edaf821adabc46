import { describe, expect, it } from "vitest";
import { gsmPlain, smsLength } from "./smsLength";

// The same rows as backend/notifications/tests/test_sms_length.py: one rule on both sides.
const EURO_80 = "€".repeat(80);

describe("smsLength", () => {
  it.each([
    ["", "gsm7", 0, 160, []],
    ["Asante kwa kutoa! Mungu akubariki.", "gsm7", 34, 126, []],
    ["x".repeat(160), "gsm7", 160, 0, []],
    ["x".repeat(161), "gsm7", 161, -1, []],
    ["Ksh 500 @ 10% - £ & ¥ è Ñ ü ¿ Δ Ω", "gsm7", 33, 127, []],
    ["Line one\nLine two", "gsm7", 17, 143, []],
    ["{church} [roof] ~ | ^ \\", "gsm7", 31, 129, []], // 23 characters, 8 of them extension ones: two each
    [EURO_80, "gsm7", 160, 0, []],
    [`${EURO_80}x`, "gsm7", 161, -1, []],
    // Typographic characters go as their GSM equivalents: the length is the text's as sent.
    ["It\u2019s done", "gsm7", 9, 151, []], // a curly apostrophe
    ["Thanks…", "gsm7", 9, 151, []], // the ellipsis goes as three dots
    ["“a” “b”", "gsm7", 7, 153, []],
    ["Harambee Night – Roofing — 2026", "gsm7", 31, 129, []],
    [`${"x".repeat(159)}\u2019`, "gsm7", 160, 0, []],
    ["Café ç", "ucs2", 6, 64, ["ç"]], // é is GSM, lower-case ç is not
    ["Asante 🙏", "ucs2", 9, 61, ["🙏"]], // beyond UCS-2: two 16-bit halves
    [`${"x".repeat(69)}ç`, "ucs2", 70, 0, ["ç"]],
    [`${"x".repeat(70)}ç`, "ucs2", 71, -1, ["ç"]],
    ["\x1b", "ucs2", 1, 69, ["\x1b"]], // the escape itself is no character to send
  ])("%j goes as %s, %i used, %i left", (text, encoding, used, remaining, outside) => {
    const length = smsLength(text);

    expect([length.encoding, length.used, length.remaining, length.outsideAlphabet]).toEqual([
      encoding,
      used,
      remaining,
      outside,
    ]);
  });

  it("sends typographic characters as their GSM equivalents and keeps the writer's own", () => {
    expect(gsmPlain("“Harambee Night – Roofing” — it’s on… 10\u00a0am")).toBe(
      '"Harambee Night - Roofing" - it\'s on... 10 am',
    );
    expect(gsmPlain("Asante 🙏 ç")).toBe("Asante 🙏 ç");
  });
});
