import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signIn, uniqueEmail } from "./support";

// The ministry campaign of /icc-imara-donate is organized by the demo organizer (backend/pledges/demo.py).
// Safaricom's sandbox number: the Daraja simulator pays STK Pushes to it successfully after 2 s.
const PAYING_PHONE = "0708374149";

/** Money as the app shows it: 'Ksh 12,500'. */
const ksh = (amount: number) => `Ksh ${amount.toLocaleString("en-KE")}`;

/** A toast (Radix also copies its text into a screen-reader announcement, hence first()). */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

async function ministryCampaignId(request: APIRequestContext): Promise<number> {
  const response = await request.get("/api/ministry-campaign");
  expect(response.ok()).toBe(true);
  return (await response.json()).campaign_id;
}

/** The pledge in Pledge Management's recent pledges (a card on phones, a table row on wider screens). */
const managementRow = (page: Page, name: string) =>
  page
    .getByRole("region", { name: "Pledge Management" })
    .locator("li, tr")
    .filter({ hasText: name, visible: true })
    .first();

test.describe("pledges and donations", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("an anonymous pledge is hidden from the public, paid by paybill and STK Push, and confirmed by itself", async ({
    page,
    browser,
  }) => {
    const id = await ministryCampaignId(page.request);
    const name = `Wairimu Njoroge ${Date.now()}`;

    await page.goto("/icc-imara-donate");
    await page.getByRole("main").getByRole("link", { name: "Pledge", exact: true }).click();
    await expect(page).toHaveURL(`/campaign/${id}/pledge`);
    const dialog = page.getByRole("dialog", { name: /^Pledge to ICC Imara/ });
    await expect(dialog.getByLabel("Full name")).toBeVisible();
    await expectAccessible(page);

    await dialog.getByRole("button", { name: "Submit pledge" }).click();
    await expect(dialog.getByText("Please fill in all required fields")).toBeVisible();
    await dialog.getByLabel("Full name").fill(name);
    await dialog.getByLabel("Email").fill(uniqueEmail("pledger"));
    await dialog.getByLabel("Phone number").fill(PAYING_PHONE);
    await dialog.getByLabel("Amount (Ksh)").fill("1,500");
    await dialog.getByLabel("Pledge anonymously").check();
    await expect(dialog.getByText("The organizer still sees your details")).toBeVisible();
    await dialog.getByRole("button", { name: "Submit pledge" }).click();

    await expect(toastText(page, "Thank you! Your pledge has been recorded successfully.")).toBeVisible();
    const code = (await dialog.getByTestId("pledge-code").textContent())?.trim() ?? "";
    expect(code).toMatch(/^[A-Z0-9]{6,8}$/);
    // How to pay: our paybill with the pledge code as the account number.
    await expect(dialog.getByText("M-Pesa Paybill").first()).toBeVisible();
    await expect(dialog.getByRole("definition").filter({ hasText: code }).first()).toBeVisible();
    await expectAccessible(page);

    // A visitor sees 'Anonymous', never the name.
    const visitor = await browser.newPage();
    await visitor.goto(`/campaign/${id}`);
    const recent = visitor.getByRole("region", { name: "Recent pledges" });
    await expect(recent.getByRole("listitem").first()).toContainText("Anonymous");
    await expect(recent.getByRole("listitem").first()).toContainText(ksh(1500));
    await expect(visitor.getByText(name)).toHaveCount(0);
    await visitor.close();

    // Part of it by paybill with the pledge code as the account number...
    const paybill = await page.request.post("/simulators/daraja/c2b/simulate", {
      data: { BillRefNumber: code, Amount: 500, MSISDN: "254708374149" },
    });
    expect(paybill.ok(), await paybill.text()).toBe(true);
    await expect(async () => {
      await dialog.getByRole("button", { name: "Check for payments" }).click();
      await expect(dialog.getByText(ksh(1000), { exact: true })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(dialog.getByText("Partly paid")).toBeVisible();

    // ...the rest by 'Pay now with M-Pesa'.
    await dialog.getByRole("button", { name: "Pay now with M-Pesa" }).click();
    await expect(dialog.getByText("Check your phone and enter your M-Pesa PIN")).toBeVisible();
    await expect(dialog.getByText(/^Payment received\./)).toBeVisible({ timeout: 15_000 });
    await expect(dialog.getByText("Fully paid. Thank you for keeping your pledge!")).toBeVisible();
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog.getByRole("button", { name: "Pay now with M-Pesa" })).toBeHidden();

    // Closing the dialog returns to the campaign.
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(page).toHaveURL(`/campaign/${id}`);

    // The organizer sees the real name and the pledge confirmed without doing anything.
    const organizer = await browser.newPage();
    await signIn(organizer, DEMO_ORGANIZER, { next: `/campaign/${id}` });
    const row = managementRow(organizer, name);
    await expect(row).toContainText("Anonymous to the public");
    await expect(row).toContainText(code);
    await expect(row).toContainText("Confirmed");
    await expect(row.getByRole("button", { name: /^Confirmed/ })).toBeDisabled();
    await organizer.close();
  });

  test("a donation of Ksh 500 by M-Pesa raises the campaign's total", async ({ page }) => {
    const id = await ministryCampaignId(page.request);
    const before = await (await page.request.get(`/api/campaigns/${id}`)).json();

    await page.goto(`/campaign/${id}/donate`);
    await expect(page.getByRole("heading", { name: "Make a donation" })).toBeVisible();
    await expect(page.getByRole("button", { name: ksh(500), exact: true })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole("button", { name: "Donate", exact: true }).click();
    await expect(page.getByText("Please enter a valid donation amount")).toBeVisible();
    await expect(page.getByText("Please fill in your name and email").first()).toBeVisible();

    const preset = page.getByRole("button", { name: ksh(500), exact: true });
    await preset.click();
    await expect(preset).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByLabel("Amount (Ksh)")).toHaveValue("500");
    await page.getByLabel("Full name").fill("Esther Chebet");
    await page.getByLabel("Email").fill(uniqueEmail("donor"));
    await page.getByLabel("Phone number").fill(PAYING_PHONE);
    await page.getByRole("button", { name: `Donate ${ksh(500)}` }).click();

    const dialog = page.getByRole("dialog", { name: `Your donation of ${ksh(500)}` });
    await expect(dialog.getByText("Check your phone and enter your M-Pesa PIN")).toBeVisible();
    await expect(dialog.getByText(/^Payment received\./)).toBeVisible({ timeout: 15_000 });
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(page.getByText(`Thank you for your donation of ${ksh(500)}!`)).toBeVisible();

    const summary = page.getByRole("region", { name: before.title });
    await expect(summary).toContainText(ksh(before.raised_total + 500));
    await expect(summary).toContainText(String(before.donor_count + 1));
  });

  test("the organizer records a cash payment, confirms the pledge and assigns an unmatched payment", async ({
    page,
  }) => {
    const id = await ministryCampaignId(page.request);
    const name = `Otieno Cash ${Date.now()}`;
    const session = await (await page.request.get("/api/auth/session")).json();
    const created = await page.request.post("/api/pledges", {
      data: { campaign_id: id, name, email: uniqueEmail("cash"), phone: "0722000555", amount: 2000 },
      headers: { "X-CSRFToken": session.csrf_token },
    });
    expect(created.ok(), await created.text()).toBe(true);

    await signIn(page, DEMO_ORGANIZER, { next: `/campaign/${id}` });
    const row = managementRow(page, name);
    await expect(row).toContainText("Pending");

    await row.getByRole("button", { name: /^Record payment/ }).click();
    const record = page.getByRole("dialog", { name: "Record cash or bank payment" });
    await expect(record.getByLabel("Amount (Ksh)")).toHaveValue("2000");
    await record.getByLabel("Amount (Ksh)").fill("500");
    await record.getByLabel("Note (optional)").fill("Sunday offering envelope");
    await record.getByRole("button", { name: "Record payment" }).click();
    await expect(toastText(page, "Payment recorded")).toBeVisible();
    await expect(row).toContainText("Partly paid");

    await row.getByRole("button", { name: /^Confirm payment/ }).click();
    const confirm = page.getByRole("alertdialog", { name: "Confirm payment?" });
    await expect(confirm.getByText(/This action cannot be undone\./)).toBeVisible();
    await expectAccessible(page);
    await confirm.getByRole("button", { name: "Confirm payment" }).click();
    await expect(toastText(page, "Payment confirmed successfully!")).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(row.getByRole("button", { name: /^Confirmed/ })).toBeDisabled();

    // The demo's paybill payment with a mistyped code waits in 'Unmatched payments'; one click assigns it.
    const assign = page.getByRole("button", { name: /^Assign to Mercy Wambui/ });
    await assign.click();
    await expect(page.getByText(/^Payment assigned to Mercy Wambui's pledge/).first()).toBeVisible();
    await expect(assign).toBeHidden();
  });

  test("the ministry page copies its address", async ({ page }) => {
    await page.goto("/icc-imara-donate");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Building our church home");
    const copy = page.getByRole("button", { name: "Copy page URL" });
    await copy.click();
    await expect(page.getByRole("button", { name: "URL Copied!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    await expect(copy).toBeVisible({ timeout: 4_000 });
    await expect(page.getByRole("main").getByRole("link", { name: "Donate", exact: true })).toHaveAttribute(
      "href",
      /^\/campaign\/\d+\/donate$/,
    );
  });
});
