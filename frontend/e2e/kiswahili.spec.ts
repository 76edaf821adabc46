import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatter } from "@lingui/format-po";
import { expect, type Page } from "@playwright/test";
import { expectAccessible, MINISTRY_PAYBILL, test, uniqueEmail } from "./support";

const CATALOGUE = join(import.meta.dirname, "..", "src", "locales", "sw", "messages.po");
// Not ending in 0500: the SMS simulator takes it.
const PHONE = "0712345678";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A pattern matching the whole of a text that is `message` in English, whatever fills its
 * placeholders; null when too little of it is fixed words to tell (e.g. "{0}"). */
function englishPattern(message: string): RegExp | null {
  const text = message
    .replace(/\{\w+, plural,.*\bother \{([^{}]*)\}\}/g, "$1") // the plural's 'other' form stands for it
    .replace(/<\/?\d+\/?>/g, "");
  const parts = text.split(/\{\w+\}|#/);
  if (!/[A-Za-z]{3,}/.test(parts.join(" "))) return null;
  // A space may vanish between elements, but a word still ends there: "Dial {code}" is not "Dialysis…".
  return new RegExp(
    `^${parts.map((part) => escapeRegExp(part).replace(/\s+/g, "(?:\\s+|\\b)")).join(".+?")}$`,
  );
}

/** The English texts of the app that read differently in Kiswahili (not brands like M-Pesa). */
async function englishTexts(): Promise<{ message: string; pattern: RegExp }[]> {
  const catalogue = await formatter({ lineNumbers: false }).parse(readFileSync(CATALOGUE, "utf-8"), {
    locale: "sw",
    sourceLocale: "en",
    filename: CATALOGUE,
  });
  return Object.values(catalogue).flatMap(({ message, translation }) => {
    const pattern = message && translation !== message ? englishPattern(message) : null;
    return pattern && message ? [{ message, pattern }] : [];
  });
}

/** Every visible text of the page: each element's text, and the labels and placeholders it carries. */
function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = new Set<string>();
    for (const element of document.body.querySelectorAll("*")) {
      if (!element.checkVisibility() || ["SCRIPT", "STYLE"].includes(element.tagName)) continue;
      const text = (element.textContent ?? "").replace(/\s+/g, " ").trim();
      if (text && text.length < 600) texts.add(text);
      for (const name of ["aria-label", "placeholder", "title", "alt"]) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.add(value);
      }
    }
    return [...texts];
  });
}

/** No visible text of the page is one of the app's English texts. */
async function expectNoEnglish(page: Page, english: { message: string; pattern: RegExp }[]) {
  const texts = await visibleTexts(page);
  const leftovers = texts.flatMap((text) =>
    english.filter(({ pattern }) => pattern.test(text)).map(({ message }) => `${text} (${message})`),
  );
  expect(leftovers, `English on ${page.url()}`).toEqual([]);
}

test("in Kiswahili, pledging shows no English on the way and the pledger's SMS is in Kiswahili", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const english = await englishTexts();
  const campaignId = (await (await page.request.get("/api/ministry-campaign")).json()).campaign_id;

  // The browser asks for English; the Kiswahili button in the footer changes it, and the server remembers it.
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Harambee");
  // (The check below finds English where there is some.)
  const englishOnTheHomePage = (await visibleTexts(page)).filter((text) =>
    english.some(({ pattern }) => pattern.test(text)),
  );
  expect(englishOnTheHomePage).toContain("Welcome to Harambee");
  await page
    .getByRole("contentinfo")
    .getByRole("group", { name: "Language" })
    .getByRole("button", { name: "Kiswahili" })
    .click();
  await expect(page.locator("html")).toHaveAttribute("lang", "sw");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Karibu Harambee");
  await expectNoEnglish(page, english);

  // The campaign page, first painted in Kiswahili by the server's <html lang>.
  await page.goto(`/campaign/${campaignId}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "sw");
  await expect(page.getByRole("region", { name: "Ahadi za hivi karibuni" })).toBeVisible();
  await expect(
    page
      .getByRole("contentinfo")
      .getByRole("group", { name: "Lugha" })
      .getByRole("button", { name: "Kiswahili" }),
  ).toHaveAttribute("aria-pressed", "true");
  await expectNoEnglish(page, english);
  await expectAccessible(page);

  // The pledge form, its errors (the server's, in Kiswahili too), and the receipt.
  await page.getByRole("main").getByRole("link", { name: "Ahadi", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Toa ahadi kwa / });
  await expect(dialog.getByLabel("Jina kamili")).toBeVisible();
  await expectNoEnglish(page, english);
  await dialog.getByRole("button", { name: "Tuma ahadi" }).click();
  await expect(dialog.getByText("Tafadhali jaza sehemu zote zinazohitajika").first()).toBeVisible();
  await expectNoEnglish(page, english);

  const name = `Baraka Otieno ${Date.now()}`;
  await dialog.getByLabel("Jina kamili").fill(name);
  await dialog.getByLabel("Barua pepe").fill(uniqueEmail("ahadi"));
  await dialog.getByLabel("Nambari ya simu").fill(PHONE);
  await dialog.getByLabel("Kiasi (Ksh)").fill("1,500");
  await dialog.getByRole("button", { name: "Tuma ahadi" }).click();
  await expect(page.getByText("Asante! Ahadi yako imerekodiwa.").first()).toBeVisible();
  const code = (await dialog.getByTestId("pledge-code").textContent())?.trim() ?? "";
  expect(code).toMatch(/^[A-Z0-9]{6,8}$/);
  await expect(dialog.getByText("Ksh 1,500").first()).toBeVisible();
  await expectNoEnglish(page, english);

  // The SMS to the pledger, from the SMS simulator's outbox.
  const outbox = await page.context().newPage();
  const sms = outbox.locator("pre").filter({ hasText: code });
  await expect(async () => {
    await outbox.goto("/simulators/sms/outbox");
    await expect(sms.first()).toBeVisible({ timeout: 1_000 });
    // The task worker may still be sending the demo data's messages.
  }).toPass({ timeout: 60_000 });
  // No name: nothing shows the number is the pledger's (backend/notifications/recipient_limits.py).
  await expect(sms.first()).toContainText("Asante! Umeahidi Ksh 1,500 kwa");
  await expect(sms.first()).not.toContainText(name.slice(0, 17));
  await expect(sms.first()).toContainText(`Lipa kupitia Paybill ${MINISTRY_PAYBILL}`);
  await expect(sms.first()).not.toContainText("Thank you");
  await outbox.close();

  // Remembered: a new visit starts in Kiswahili.
  await page.goto("/explore");
  await expect(page.locator("html")).toHaveAttribute("lang", "sw");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gundua Kampeni");
});
