import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, MINISTRY_PAYBILL, signIn, test } from "./support";

const ROOT = join(import.meta.dirname, "..", "..");
const DATABASE = join(ROOT, ".tmp", `e2e-${process.env.E2E_PORT ?? 8123}`, "db.sqlite3");

/** Runs `code` in the e2e server's database (Django's shell); answers the last line it prints (the shell
 * first says what it imported). */
function inDatabase(code: string, input: unknown): string {
  const printed = execFileSync(join(ROOT, ".venv", "bin", "python"), ["manage.py", "shell", "-c", code], {
    cwd: join(ROOT, "backend"),
    env: { ...process.env, DATABASE_URL: `sqlite:///${DATABASE}`, E2E_INPUT: JSON.stringify(input) },
  });
  return printed.toString().trim().split("\n").at(-1) ?? "";
}

/** Turns M-Pesa Ratiba on or off for the ministry's connected paybill, as its treasurer would. */
function setRatiba(enabled: boolean): void {
  inDatabase(
    `
import json, os
from payments.models import MpesaConnection
paybill, enabled = json.loads(os.environ["E2E_INPUT"])
MpesaConnection.objects.filter(account__paybill_number=paybill).update(ratiba_enabled=enabled)
`,
    [MINISTRY_PAYBILL, enabled],
  );
}

/** A Ksh 10,000 pledge to the campaign paid into the ministry's paybill, in four weekly instalments of 2,500
 * from tomorrow, by a phone whose prompts wait on the simulator's virtual phone (ending 0000). Its code. */
function pledgeWithEqualPlan(): string {
  return inDatabase(
    `
import datetime, json, os
from django.utils import timezone
from campaigns.models import Campaign
from pledges.instalments import PlanTerms
from pledges.services import pledge_create
paybill = json.loads(os.environ["E2E_INPUT"])
campaign = Campaign.objects.filter(account_links__account__paybill_number=paybill).first()
pledge = pledge_create(
    campaign_id=campaign.pk, amount=10000, name="Wanjiku Kamau", email="wanjiku@example.com",
    phone="0700000000", is_anonymous=False, viewer=None, client_ip="",
    plan=PlanTerms(2500, "weekly", timezone.localdate() + datetime.timedelta(days=1)),
)
print(pledge.code)
`,
    MINISTRY_PAYBILL,
  );
}

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

  const plans = page.getByRole("region", { name: "Instalment plans: promised and paid" });
  await expect(plans.getByRole("listitem").first()).toContainText("Promised");
  await expect(plans.getByRole("listitem").first()).toContainText("Towards plans");
  await expect(plans.getByRole("listitem").first()).toContainText("All money in");
  await expect(page.getByRole("link", { name: "Export analytics by month (CSV)" })).toHaveAttribute(
    "href",
    `/api/campaigns/${id}/analytics.csv`,
  );
  await expectAccessible(page);
});

test.describe("paying a plan automatically", () => {
  test.beforeAll(() => setRatiba(true));
  test.afterAll(() => setRatiba(false));

  test("a pledger approves a standing order for their plan on the phone and the page says how to stop it", async ({
    page,
  }) => {
    test.slow(); // two pages, a phone and axe, on a busy machine
    const code = pledgeWithEqualPlan();
    await page.goto(`/pledges/${code}`);
    const plan = page.getByRole("region", { name: "Instalment plan" });
    await expect(plan.getByText(/Approve once with your M-Pesa PIN/)).toBeVisible();
    await expectAccessible(page);

    await plan.getByRole("button", { name: "Pay automatically with M-Pesa" }).click();
    await expect(plan.getByRole("status")).toContainText("Check your phone: approve the standing order");

    // The payer's phone (the simulator's): the prompt names the order, the amount and the pledge code.
    const phone = await page.context().newPage();
    await phone.goto("/simulators/daraja/phone");
    const prompt = phone.locator("section").filter({ hasText: `Pledge ${code}` });
    await expect(prompt).toContainText(`KES 2500 to ${MINISTRY_PAYBILL} (account ${code})`);
    await prompt.getByRole("button", { name: "Approve standing order" }).click();
    await phone.close();

    // The pledge page looks again every few seconds while the order waits.
    await expect(plan.getByRole("status")).toContainText("Paid automatically with M-Pesa: Ksh 2,500 a week", {
      timeout: 15_000,
    });
    await expect(plan.getByRole("status")).toContainText(`dial *334# and open M-PESA Ratiba`);
    await expect(plan.getByRole("button", { name: "Pay automatically with M-Pesa" })).toBeHidden();
    await expectAccessible(page);

    // Changing the plan says the standing order keeps paying until it is stopped on the phone.
    await plan.getByRole("button", { name: "Change plan" }).click();
    await expect(
      plan.getByText("Changing the plan does not change your M-Pesa standing order"),
    ).toBeVisible();
  });
});
