import { expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signIn, test } from "./support";

// The demo organizer's figures, from the demo data (backend/campaigns/demo.py, backend/pledges/demo.py),
// where every total comes from real pledges and payments:
// - active pledging campaigns: 7 of DEMO_CAMPAIGNS plus the ICC Imara ministry campaign (Youth Camp is pending);
// - 4 of them get the demo pledges (the ministry campaign, the sanctuary, the borehole and dialysis), each
//   pledged 50,000 + 20,000 + 100,000 + 15,000 + 30,000 + 10,000 + 5,000 + 25,000 = 255,000;
// - each paid: paybill 50,000 + 5,000 (a quarter) + 32,000 (overpaid), cash 5,000 (a third), bank 10,000
//   (confirmed by the organizer) = 102,000 (the mistyped 5,000 stays unmatched), plus 4,000 of donations.
// These figures hold only before any spec pledges to or pays the demo organizer's campaigns: Playwright runs a
// shard's files in alphabetical order, and no spec named before this one touches them (keep it so).
const ACTIVE_CAMPAIGNS = 8;
const PLEDGED_PER_CAMPAIGN = 255_000;
const PAID_PER_CAMPAIGN = 106_000;
const BOREHOLE = "Clean Water Borehole for Kathonzweni Village";
const PENDING = "Youth Camp 2026 at Brackenhurst";

const kes = (amount: number) => `KES ${new Intl.NumberFormat("en-KE").format(amount)}`;
const ksh = (amount: number) => `Ksh ${new Intl.NumberFormat("en-KE").format(amount)}`;

function stat(page: Page, label: string) {
  return page.locator("dl > div").filter({ has: page.getByRole("term").getByText(label, { exact: true }) });
}

test("the demo organizer's dashboard shows the figures of the demo pledges and the pending campaign's Pay Now", async ({
  page,
}) => {
  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });

  await expect(stat(page, "Active Campaigns").getByRole("definition")).toHaveText(String(ACTIVE_CAMPAIGNS));
  await expect(stat(page, "Total Pledges").getByRole("definition")).toHaveText(kes(4 * PLEDGED_PER_CAMPAIGN));
  await expect(stat(page, "Paid so far").getByRole("definition")).toHaveText(kes(4 * PAID_PER_CAMPAIGN));

  const pending = page.getByRole("article", { name: PENDING });
  await expect(pending.getByText("Complete payment to activate your campaign")).toBeVisible();
  await expect(pending.getByRole("button", { name: "View Campaign" })).toBeDisabled();
  await expect(pending.getByRole("link", { name: /Analytics/ })).toHaveCount(0);
  await pending.getByRole("button", { name: `Pay Now for ${PENDING}` }).click();
  await expect(page.getByRole("dialog", { name: "Activate your campaign" })).toBeVisible();
});

test("a visitor's view is counted, and the organizer's analytics draw the chart with the demo figures", async ({
  page,
  browser,
}) => {
  // A visitor opens the campaign page: its beacon counts a view, without any cookie of ours.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const counted = visitorPage.waitForResponse((answer) => /\/api\/campaigns\/\d+\/views$/.test(answer.url()));
  const search = await (
    await visitorPage.request.get(`/api/campaigns?q=${encodeURIComponent("Kathonzweni")}`)
  ).json();
  await visitorPage.goto(`/campaign/${search[0].id}`);
  expect((await counted).status()).toBe(204);
  await visitor.close();

  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
  await page.getByRole("link", { name: `Analytics for ${BOREHOLE}` }).click();
  await expect(page).toHaveURL(`/campaign/${search[0].id}/analytics`);
  await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
  await expect(page.getByText(BOREHOLE)).toBeVisible();

  await expect(stat(page, "Pledged").getByRole("definition").first()).toHaveText(ksh(PLEDGED_PER_CAMPAIGN));
  await expect(stat(page, "Paid").getByRole("definition").first()).toHaveText(ksh(PAID_PER_CAMPAIGN));
  const views = Number(
    (await stat(page, "Page views").getByRole("definition").textContent())?.replace(/,/g, ""),
  );
  expect(views).toBeGreaterThanOrEqual(1);

  // uPlot has drawn the lines: the canvas has painted pixels.
  const canvas = page.getByTestId("cumulative-chart").locator("canvas");
  await expect(canvas).toBeVisible();
  const painted = await canvas.evaluate((element: HTMLCanvasElement) => {
    const pixels = element.getContext("2d")?.getImageData(0, 0, element.width, element.height).data ?? [];
    let count = 0;
    for (let index = 3; index < pixels.length; index += 4) if ((pixels[index] ?? 0) > 0) count += 1;
    return count;
  });
  expect(painted).toBeGreaterThan(500);

  // The same figures for screen readers: today's row has every demo pledge and payment.
  const table = page.getByRole("table", { name: /each day with activity/ });
  const today = table.getByRole("row").last();
  await expect(today.getByRole("cell").nth(2)).toHaveText(ksh(PLEDGED_PER_CAMPAIGN));
  await expect(today.getByRole("cell").nth(3)).toHaveText(ksh(PAID_PER_CAMPAIGN));

  const statuses = page.getByRole("region", { name: "Pledges by status" });
  await expect(statuses.getByRole("listitem").filter({ hasText: "Confirmed" })).toContainText(
    "Ksh 90,000 (3 pledges)",
  );
  await expect(statuses.getByRole("listitem").filter({ hasText: "Partly paid" })).toContainText(
    "Ksh 35,000 (2 pledges)",
  );
  await expect(statuses.getByRole("listitem").filter({ hasText: "Pending" })).toContainText(
    "Ksh 130,000 (3 pledges)",
  );
  const methods = page.getByRole("region", { name: "Payments by method" });
  await expect(methods.getByRole("listitem").filter({ hasText: "paybill" })).toContainText(
    "Ksh 87,000 (3 payments)",
  );
  await expect(methods.getByRole("listitem").filter({ hasText: "Cash" })).toContainText(
    "Ksh 9,000 (4 payments)",
  );
  await expect(methods.getByRole("listitem").filter({ hasText: "Bank" })).toContainText(
    "Ksh 10,000 (1 payment)",
  );

  await expect(page.getByRole("link", { name: "Export pledges (CSV)" })).toHaveAttribute(
    "href",
    `/api/pledges/export.csv?campaign_id=${search[0].id}`,
  );
  await expectAccessible(page);
});

test("another organizer's analytics are refused", async ({ page }) => {
  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
  const search = await (
    await page.request.get(`/api/campaigns?q=${encodeURIComponent("Mama Wanjiru")}`)
  ).json();

  await page.goto(`/campaign/${search[0].id}/analytics`);

  await expect(page.getByRole("alert")).toContainText(
    "Only the campaign's owners, treasurers and viewers, or an admin, can see its analytics.",
  );
});
