import { expect, type Page, test } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signIn } from "./support";

// The demo data (backend/pledges/demo.py) gives two pledgers of each pledged campaign weekly plans whose
// first instalments fell due in the past: David Otieno has paid the one due (on track), Samuel Kiptoo one
// of the two due (behind by one, Ksh 5,000). No clock control in the browser: the dates are real.
const BOREHOLE = "Clean Water Borehole for Kathonzweni Village";

/** The pledge in the list of all pledges (a card on phones, a table row on wider screens). */
const pledgeRow = (page: Page, name: string) =>
  page
    .getByRole("region", { name: "Pledge Management" })
    .locator("li, tr")
    .filter({ hasText: name, visible: true })
    .last();

test("a treasurer sees who is on track and who is behind their instalment plan, and filters those behind", async ({
  page,
}) => {
  test.slow(); // a search, a filter and a dialog, each checked with axe, on a busy machine
  const found = await (
    await page.request.get(`/api/campaigns?q=${encodeURIComponent("Kathonzweni")}`)
  ).json();
  const id = found.find((campaign: { title: string }) => campaign.title === BOREHOLE).id;
  await signIn(page, DEMO_ORGANIZER, { next: `/campaign/${id}` });

  await page.getByRole("button", { name: "View all pledges" }).click();
  const search = page.getByRole("searchbox", { name: "Search pledges" });
  await search.fill("Samuel Kiptoo");
  await expect(pledgeRow(page, "Samuel Kiptoo")).toContainText("Behind by 1 instalment (Ksh 5,000)");
  await expect(pledgeRow(page, "Samuel Kiptoo")).toContainText("Ksh 5,000 a week");
  await search.fill("David Otieno");
  await expect(pledgeRow(page, "David Otieno")).toContainText("On track");
  await expect(pledgeRow(page, "David Otieno")).not.toContainText("Behind");

  await search.fill("");
  await page.getByLabel("Only pledgers behind their instalment plan").check();
  await expect(page.getByText("1 pledge", { exact: true })).toBeVisible();
  await expect(pledgeRow(page, "Samuel Kiptoo")).toContainText("Behind by 1 instalment");
  await expectAccessible(page);

  // The treasurer opens the plan agreed with Samuel: its terms are there to change.
  await pledgeRow(page, "Samuel Kiptoo")
    .getByRole("button", { name: /^Change plan/ })
    .click();
  const dialog = page.getByRole("dialog", { name: "Instalment plan" });
  await expect(dialog.getByLabel("Instalment (Ksh)")).toHaveValue("5000");
  await expect(dialog.getByLabel("How often")).toHaveValue("weekly");
  await expectAccessible(page);
});

test("the analytics show what the instalment plans promise by month beside what arrived", async ({
  page,
}) => {
  const found = await (
    await page.request.get(`/api/campaigns?q=${encodeURIComponent("Kathonzweni")}`)
  ).json();
  const id = found.find((campaign: { title: string }) => campaign.title === BOREHOLE).id;
  await signIn(page, DEMO_ORGANIZER, { next: `/campaign/${id}/analytics` });

  const plans = page.getByRole("region", { name: "Instalment plans: promised and arrived" });
  await expect(plans.getByRole("listitem").first()).toContainText("Promised");
  await expect(plans.getByRole("listitem").first()).toContainText("Arrived");
  await expect(page.getByRole("link", { name: "Export analytics by month (CSV)" })).toHaveAttribute(
    "href",
    `/api/campaigns/${id}/analytics.csv`,
  );
  await expectAccessible(page);
});
