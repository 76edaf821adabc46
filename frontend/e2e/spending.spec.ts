import { type APIRequestContext, expect } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signedInPage, test } from "./support";

const DEMO_TREASURER = "treasurer@harambee.local";

async function ministryCampaignId(request: APIRequestContext): Promise<number> {
  const response = await request.get("/api/ministry-campaign");
  return (await response.json()).campaign_id;
}

test("a treasurer records spending, a second person approves it, and every giver sees it", async ({
  browser,
  page,
}) => {
  const id = await ministryCampaignId(page.request);
  const payee = `Nyeri Timber Yard ${Date.now()}`;
  const teamPage = `/campaign/${id}/spending/team`;

  // The treasurer records what the church paid: it waits for a second person.
  const treasurer = await signedInPage(browser, DEMO_TREASURER, teamPage);
  await expect(treasurer.getByRole("heading", { name: "Spending", level: 1 })).toBeVisible();
  await expectAccessible(treasurer);
  const form = treasurer.getByRole("region", { name: "Record spending" });
  await form.getByLabel("Amount (Ksh)").fill("12500");
  await form.getByLabel("Paid to").fill(payee);
  await form.getByLabel("Category").selectOption("materials");
  await form.getByRole("button", { name: "Record", exact: true }).click();
  await expect(
    treasurer.getByText("Recorded. A second owner or treasurer must approve it.", { exact: true }),
  ).toBeVisible();
  await expect(treasurer.getByText(`${payee} · Materials`)).toBeVisible();
  await expect(treasurer.getByRole("button", { name: `Approve Ksh 12,500 to ${payee}` })).toHaveCount(0);

  // Not yet on the public page.
  await page.goto(`/campaign/${id}/spending`);
  await expect(page.getByRole("heading", { name: "How the money was used", level: 1 })).toBeVisible();
  await expect(page.getByText(payee)).toHaveCount(0);

  // The owner approves it.
  const owner = await signedInPage(browser, DEMO_ORGANIZER, teamPage);
  await owner.getByRole("button", { name: `Approve Ksh 12,500 to ${payee}` }).click();
  await expect(owner.getByText("Approved.", { exact: true })).toBeVisible();

  // Every giver now sees it; a private person paid is shown by initials only (the demo's fundi).
  await page.reload();
  await expect(page.getByText(payee)).toBeVisible();
  await expect(page.getByText("P. M. K.")).toBeVisible();
  await expect(page.getByText("Peter Mwangi Kariuki")).toHaveCount(0);
  await expect(page.getByRole("img", { name: /Money in and out over time/ })).toBeVisible();
  await expectAccessible(page);
});

test("the public page comes from the server with its figures, before any script runs", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const id = await ministryCampaignId(page.request);

  await page.goto(`/campaign/${id}/spending`);

  await expect(page.getByRole("heading", { name: "How the money was used", level: 1 })).toBeVisible();
  await expect(page.getByText("Kisumu Hardware Ltd")).toBeVisible();
  await context.close();
});
