import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signIn, test } from "./support";

// Issue 32, the night's report: an event with desk entries is closed; its owner opens the report from
// the events page, checks its figures, downloads its CSV and thanks the givers once.

async function ministryCampaignId(request: APIRequestContext): Promise<number> {
  const response = await request.get("/api/ministry-campaign");
  expect(response.ok()).toBe(true);
  return (await response.json()).campaign_id;
}

/** An API call in a signed-in page's session, with its CSRF token, as the app makes it. */
async function post(page: Page, path: string, data: object = {}) {
  const session = await (await page.request.get("/api/auth/session")).json();
  const response = await page.request.post(path, { headers: { "X-CSRFToken": session.csrf_token }, data });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

test("the night's report of a closed event: figures, by usher, its CSV, and one thank-you", async ({
  page,
  request,
}) => {
  const id = await ministryCampaignId(request);
  const stamp = Date.now();
  const phone = `07${String(stamp).slice(-8)}`;
  const title = `Report night ${stamp}`;

  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
  const events = await (await page.request.get(`/api/campaigns/${id}/events`)).json();
  for (const open of events.filter((event: { state: string }) => event.state === "open")) {
    await post(page, `/api/events/${open.id}/close`);
  }
  const event = await post(page, `/api/campaigns/${id}/events`, {
    title,
    starts_at: new Date(stamp).toISOString(),
    ends_at: new Date(stamp + 3 * 3_600_000).toISOString(),
  });
  await post(page, `/api/events/${event.id}/open`);
  const desk = (body: object) =>
    post(page, `/api/events/${event.id}/desk-entries`, { idempotency_key: crypto.randomUUID(), ...body });
  await desk({ kind: "pledge", amount: 20_000, name: `Wanjiru ${stamp}`, phone });
  await desk({ kind: "cash", amount: 1_500, name: `=Otieno ${stamp}` });
  await post(page, `/api/events/${event.id}/close`);

  await page.goto(`/campaign/${id}/events`);
  await page.getByRole("link", { name: `Report of ${title}` }).click();
  await expect(page.getByRole("heading", { name: `The night's report: ${title}` })).toBeVisible();

  const totals = page.getByRole("region", { name: "Totals" });
  await expect(totals.getByText("Ksh 20,000")).toBeVisible();
  await expect(totals.getByText("(1 pledges)")).toBeVisible();
  await expect(totals.getByText("Ksh 1,500")).toBeVisible();
  const ways = page.getByRole("table", { name: "Entries and amounts by way of giving" });
  await expect(ways.getByRole("row", { name: /Desk: pledge card 1 Ksh 20,000/ })).toBeVisible();
  await expect(ways.getByRole("row", { name: /Desk: cash 1 Ksh 1,500/ })).toBeVisible();
  const ushers = page.getByRole("table", { name: /What each usher recorded/ });
  await expect(ushers.getByRole("row")).toHaveCount(2);
  await expect(ushers.getByRole("cell", { name: "1 · Ksh 20,000" })).toBeVisible();
  const entries = page.getByRole("table", { name: /The night's pledges and gifts/ });
  await expect(entries.getByText(`Wanjiru ${stamp}`)).toBeVisible();
  await expect(entries.getByText("New pledger")).toBeVisible();
  await expectAccessible(page);

  // Printable: "Print" opens the browser's dialog; on paper the header, buttons and forms are left off.
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute("data-printed", "yes");
  });
  await page.getByRole("button", { name: "Print" }).click();
  await expect(page.locator("body")).toHaveAttribute("data-printed", "yes");
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("banner")).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("heading", { name: "Thank the givers" })).toBeHidden();
  await expect(entries).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const csv = await readFile((await download.path()) as string, "utf-8");
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toMatch(/^Time,Kind,Method,Name,/);
  expect(lines).toHaveLength(3);
  expect(csv).toContain(`Wanjiru ${stamp}`);
  // A name a spreadsheet would run as a formula is made inert.
  expect(csv).toContain(`'=Otieno ${stamp}`);

  const message = page.getByLabel("Your message");
  await expect(message).toHaveValue(new RegExp(`^Thank you for giving at ${title}\\.`));
  // The counter counts the text as sent: an ellipsis goes as "..." (three characters of the SMS alphabet), so
  // it never turns the message into a 70-character one.
  await message.fill(`Asante sana… ${stamp}`);
  await expect(page.getByText("132 characters left in one SMS")).toBeVisible();
  await expect(page.getByTestId("thanks-ucs2")).toHaveCount(0);
  await message.fill(`Asante sana ${stamp}!`);
  await expect(page.getByText("134 characters left in one SMS")).toBeVisible();
  await expect(page.getByTestId("thanks-ucs2")).toHaveCount(0);
  await expect(page.getByRole("figure", { name: "What they will read" })).toHaveText(
    `What they will readAsante sana ${stamp}!`,
  );
  await page.getByRole("button", { name: "Send the thank-you" }).click();
  await expect(page.getByText(/^Thanked now/)).toContainText("Thanked now: 1. Already thanked: 0.");
  await expect(page.getByText(/^Thanked now/)).toContainText("1 without a number or e-mail");
  await page.getByRole("button", { name: "Thank those not thanked yet" }).click();
  await expect(page.getByText(/^Thanked now/)).toContainText("Thanked now: 0. Already thanked: 1.");
  await expectAccessible(page);
});
