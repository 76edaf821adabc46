import { expect, type Page } from "@playwright/test";
import { expectAccessible, test, uniqueEmail } from "./support";

// A pledge from a phone that never runs the app: the pledge page is the server's HTML
// (backend/config/spa.py) with a plain form that posts to the server (backend/config/pledge_form.py),
// which answers with the messages, then the receipt at /pledges/{code}, whose 'Pay now' form posts the
// same way (a PIN prompt for the amount due or less, more refused). With JavaScript the same form
// is the app's (pledges.spec.ts); here it is also checked that the hydrated form still sends by the API.

test.use({ javaScriptEnabled: false });

async function ministryCampaignId(page: Page): Promise<number> {
  const response = await page.request.get("/api/ministry-campaign");
  expect(response.ok()).toBe(true);
  return (await response.json()).campaign_id;
}

// What a visitor reads, in each language: the form's labels and the server's messages.
const WORDS = {
  en: {
    name: "Full name",
    email: "Email",
    phone: "Phone number",
    amount: "Amount (Ksh)",
    submit: "Submit pledge",
    messages: [
      "Please fill in all required fields",
      "Email is required",
      "Phone number is required",
      "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000.",
    ],
    receipt: "Your pledge",
    payAmount: "Amount to pay (Ksh)",
    payNow: "Pay now with M-Pesa",
    tooMuch: "Please enter an amount from Ksh 1 to Ksh 2,500.",
    promptSent: "A prompt for your M-Pesa PIN is on its way to your phone.",
  },
  sw: {
    name: "Jina kamili",
    email: "Barua pepe",
    phone: "Nambari ya simu",
    amount: "Kiasi (Ksh)",
    submit: "Tuma ahadi",
    messages: [
      "Tafadhali jaza sehemu zote zinazohitajika",
      "Barua pepe inahitajika",
      "Nambari ya simu inahitajika",
      "Tafadhali weka kiasi kamili kuanzia Ksh 1 hadi Ksh 1,000,000,000.",
    ],
    receipt: "Ahadi yako",
    payAmount: "Kiasi cha kulipa (Ksh)",
    payNow: "Lipa sasa kwa M-Pesa",
    tooMuch: "Tafadhali weka kiasi kuanzia Ksh 1 hadi Ksh 2,500.",
    promptSent: "Ombi la PIN yako ya M-Pesa linakuja kwenye simu yako.",
  },
};

for (const language of ["en", "sw"] as const) {
  test(`without JavaScript a pledge shows its validation errors, then its receipt (${language})`, async ({
    page,
    context,
    baseURL,
  }) => {
    const words = WORDS[language];
    await context.addCookies([{ name: "django_language", value: language, url: baseURL }]);
    const id = await ministryCampaignId(page);
    const name = `Kamau Njenga ${Date.now()}`;

    await page.goto(`/campaign/${id}/pledge`);
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    const form = page.locator(`form[method="post"][action="/campaign/${id}/pledge"]`);
    await expect(form.getByLabel(words.name)).toBeVisible();
    await expect(form.locator('input[type="hidden"][name="csrfmiddlewaretoken"]')).toHaveCount(1);

    // Sent half filled in: the page comes back with the messages under their fields, and what was typed.
    await form.getByLabel(words.name).fill(name);
    await form.getByLabel(words.amount).fill("12.5");
    await form.getByRole("button", { name: words.submit }).click();

    await expect(page).toHaveURL(`/campaign/${id}/pledge`);
    for (const message of words.messages) await expect(page.getByText(message)).toBeVisible();
    await expect(form.getByLabel(words.name)).toHaveValue(name);
    await expect(form.getByLabel(words.email, { exact: true })).toHaveAttribute("aria-invalid", "true");

    await form.getByLabel(words.email, { exact: true }).fill(uniqueEmail(`no-js-${language}`));
    // A number of this run's own: the prompts per phone are limited, and other specs prompt other numbers.
    // It ends in 5, which the Daraja simulator pays (its test endings are 0000, 0001, 1032, 1037, 9999).
    await form.getByLabel(words.phone).fill(`0712${String(Date.now()).slice(-5)}5`);
    await form.getByLabel(words.amount).fill("2,500");
    await form.getByRole("button", { name: words.submit }).click();

    await expect(page).toHaveURL(/\/pledges\/[A-Z0-9]{7}$/);
    const code = page.url().split("/").pop() ?? "";
    await expect(page.getByRole("heading", { level: 1, name: words.receipt })).toBeVisible();
    await expect(page.getByTestId("pledge-code")).toHaveText(code);
    await expect(page.getByText("Ksh 2,500").first()).toBeVisible();

    // Paying it, still without JavaScript: the form offers what is due, refuses more than what is
    // left on the page, and sends a PIN prompt for part of it.
    const pay = page.locator(`form[method="post"][action="/pledges/${code}"]`);
    await expect(pay.getByLabel(words.payAmount)).toHaveValue("2500");
    await pay.getByLabel(words.payAmount).fill("3000");
    await pay.getByRole("button", { name: words.payNow }).click();
    await expect(page.getByText(words.tooMuch)).toBeVisible();
    await expect(pay.getByLabel(words.payAmount)).toHaveValue("3000");
    await pay.getByLabel(words.payAmount).fill("1,000");
    await pay.getByRole("button", { name: words.payNow }).click();
    await expect(page.getByRole("status").filter({ hasText: words.promptSent })).toBeVisible();
  });
}

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true });

  test("the pledge page as the server sends it is accessible", async ({ page }) => {
    // axe runs in the page, so here the page runs scripts but not the app's: what a phone without
    // JavaScript shows.
    await page.route("**/*.js", (route) => route.abort());
    await page.goto(`/campaign/${await ministryCampaignId(page)}/pledge`, { waitUntil: "load" });
    await expect(page.getByLabel("Full name")).toBeVisible();
    await expectAccessible(page);
  });

  test("the server-rendered pledge form is the app's once hydrated, and pledges by the API", async ({
    page,
  }) => {
    const id = await ministryCampaignId(page);
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    const posted: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posted.push(new URL(request.url()).pathname);
    });

    await page.goto(`/campaign/${id}/pledge`);
    const dialog = page.getByRole("dialog", { name: /^Pledge to ICC Imara/ });
    await expect(dialog.getByLabel("Full name")).toBeFocused(); // the dialog took the focus: hydrated
    await dialog.getByRole("button", { name: "Submit pledge" }).click();
    await expect(dialog.getByText("Please fill in all required fields")).toBeVisible();
    await dialog.getByLabel("Full name").fill(`Wanjiru Mwangi ${Date.now()}`);
    await dialog.getByLabel("Email").fill(uniqueEmail("hydrated"));
    await dialog.getByLabel("Phone number").fill("0712 345 678");
    await dialog.getByLabel("Amount (Ksh)").fill("300");
    await dialog.getByRole("button", { name: "Submit pledge" }).click();

    await expect(dialog.getByTestId("pledge-code")).toHaveText(/^[A-Z0-9]{7}$/);
    await expect(page).toHaveURL(`/campaign/${id}/pledge`);
    expect(posted).toContain("/api/pledges");
    expect(posted).not.toContain(`/campaign/${id}/pledge`);
    // No error, nor a refusal of the CSP: the dialog's scroll lock (a <style> element) has this
    // page's nonce.
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
  });

  test("what a visitor typed before the app arrived stays in the form, and the app sends it", async ({
    browser,
  }) => {
    // On a slow connection a visitor starts typing into the server's form; the app's first script
    // is held back here until they have, as a phone's network would.
    const context = await browser.newContext();
    let release = () => {};
    const typed = new Promise<void>((resolve) => {
      release = resolve;
    });
    await context.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await typed;
      await route.continue();
    });
    const page = await context.newPage();
    const id = await ministryCampaignId(page);
    const name = `Akinyi Otieno ${Date.now()}`;
    await page.goto(`/campaign/${id}/pledge`, { waitUntil: "domcontentloaded" });
    const dialog = page.getByRole("dialog", { name: /^Pledge to ICC Imara/ });
    await dialog.getByLabel("Full name").fill(name);
    await dialog.getByLabel("Email").fill(uniqueEmail("typed-early"));
    await dialog.getByLabel("Phone number").fill("0712 345 678");
    await dialog.getByLabel("Amount (Ksh)").fill("700");
    await dialog.getByLabel("Pledge anonymously").check();
    // Until the app has the page it says so: what e2e/support.ts waits for after every navigation.
    await expect(page.locator("html")).not.toHaveAttribute("data-app");

    release();
    await expect(page.locator("html")).toHaveAttribute("data-app", "ready");
    // The app has the form (hydration marks the nodes it adopts): its dialog's code comes after the page's.
    await page.waitForFunction(() =>
      Object.keys(document.querySelector("form") ?? {}).some((key) => key.startsWith("__reactFiber$")),
    );
    await expect(dialog.getByLabel("Full name")).toHaveValue(name);
    await expect(dialog.getByLabel("Amount (Ksh)")).toHaveValue("700");
    await expect(dialog.getByLabel("Pledge anonymously")).toBeChecked();
    const created = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/pledges");
    await dialog.getByRole("button", { name: "Submit pledge" }).click();

    expect((await created).status()).toBe(201);
    expect((await (await created).json()).is_anonymous).toBe(true);
    await expect(dialog.getByTestId("pledge-code")).toHaveText(/^[A-Z0-9]{7}$/);
    await expect(page).toHaveURL(`/campaign/${id}/pledge`);
    await context.close();
  });
});
