import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, MINISTRY_PAYBILL, pledgeDialog, signIn, test } from "./support";

const ROOT = join(import.meta.dirname, "..", "..");
const DATABASE = join(ROOT, ".tmp", `e2e-${process.env.E2E_PORT ?? 8123}`, "db.sqlite3");
// The Daraja simulator approves PIN prompts to this number; the SMS simulator stores it in E.164.
const PHONE = "0708374149";
const E164 = "+254708374149";

/** `manage.py shell -c script` against the e2e server's database; its printed output. */
function shell(script: string, input: unknown): string {
  return execFileSync(join(ROOT, ".venv", "bin", "python"), ["manage.py", "shell", "-v0", "-c", script], {
    cwd: join(ROOT, "backend"),
    env: { ...process.env, DATABASE_URL: `sqlite:///${DATABASE}`, E2E_INPUT: JSON.stringify(input) },
    encoding: "utf-8",
  });
}

/** A church campaign of the demo organizer ending in 10 days, made as the wizard would; its id.
 * Its own, so closing it leaves the demo campaigns other specs use alone. */
function createChurchCampaign(title: string, status: "active" | "pending" = "active"): number {
  const script = `
import datetime, json, os
from django.utils import timezone
from accounts.models import User
from campaigns.models import Campaign, CampaignCollectionAccount
from collection_accounts.models import CollectionAccount
from organizations.services import organization_choose_for_campaign
email, title, status, paybill = json.loads(os.environ["E2E_INPUT"])
organizer = User.objects.get(email=email)
campaign = Campaign.objects.create(
    organizer=organizer, organization=organization_choose_for_campaign(user=organizer, organization_id=None),
    title=title, description="A new roof before the long rains.", status=status,
    story="Created by the lifecycle end-to-end test.", category="church", goal=300000,
    end_date=timezone.localdate() + datetime.timedelta(days=10),
)
# Paid into the organization's own connected paybill, as the wizard would choose it.
account = CollectionAccount.objects.get(organization=campaign.organization, paybill_number=paybill)
CampaignCollectionAccount.objects.create(campaign=campaign, account=account, position=0)
print(campaign.pk)
`;
  return Number(shell(script, [DEMO_ORGANIZER, title, status, MINISTRY_PAYBILL]).trim());
}

/** The texts the SMS simulator holds for `to` that mention `code`, oldest first. */
function smsTo(to: string, code: string): string[] {
  const script = `
import json, os
from simulators.models import SimulatedSms
to, code = json.loads(os.environ["E2E_INPUT"])
rows = SimulatedSms.objects.filter(to=to, message__contains=code).order_by("created_at", "id")
print(json.dumps(list(rows.values_list("message", flat=True))))
`;
  return JSON.parse(shell(script, [to, code]));
}

function isoDateIn(days: number): string {
  // Nairobi is UTC+3 all year: its calendar date, as the server counts days.
  return new Date(Date.now() + 3 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

test("owners extend then close a campaign; a pledger follows the SMS link to its page and pays", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const title = `St. Paul's Roof ${Date.now()}`;
  const id = createChurchCampaign(title);

  // A visitor pledges while it runs.
  // A browser of their own (axe needs a page of a context).
  const pledgerContext = await browser.newContext();
  const pledger = await pledgerContext.newPage();
  await pledger.goto(`/campaign/${id}/pledge`);
  const dialog = await pledgeDialog(pledger);
  await dialog.getByLabel("Full name").fill("Wanjiru Kamau");
  await dialog.getByLabel("Email").fill(`wanjiru.${Date.now()}@example.co.ke`);
  await dialog.getByLabel("Phone number").fill(PHONE);
  await dialog.getByLabel("Amount (Ksh)").fill("3,000");
  await dialog.getByRole("button", { name: "Submit pledge" }).click();
  const code = (await dialog.getByTestId("pledge-code").textContent())?.trim() ?? "";
  expect(code).toMatch(/^[A-Z0-9]{7}$/);

  // The owner extends it by three weeks...
  await signIn(page, DEMO_ORGANIZER, { next: `/edit-campaign/${id}` });
  await page.getByRole("textbox", { name: "End date" }).fill(isoDateIn(31));
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page).toHaveURL("/dashboard", { timeout: 10_000 });
  const card = page.locator("article").filter({ hasText: title });
  await expect(card.getByText("Active", { exact: true })).toBeVisible();

  // ...then closes it early, saying so twice.
  await page.goto(`/edit-campaign/${id}`);
  await expect(page.getByRole("textbox", { name: "End date" })).toHaveValue(isoDateIn(31));
  await page.getByRole("button", { name: "Close Campaign" }).click();
  await expect(page.getByRole("button", { name: `Yes, close ${title}` })).toBeFocused();
  await page.getByRole("button", { name: `Yes, close ${title}` }).click();
  await expect(page.getByText("Campaign closed").first()).toBeVisible();
  await page.goto("/dashboard");
  await expect(card.getByText("Closed", { exact: true })).toBeVisible();

  // It has left Explore.
  await pledger.goto(`/explore?q=${encodeURIComponent(title)}`);
  await expect(pledger.getByText("No campaigns found").first()).toBeVisible();

  // The pledger's SMS still leads to the pledge, through the closed campaign's page too.
  await expect.poll(() => smsTo(E164, code).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const link = smsTo(E164, code)[0]?.match(/https?:\/\/\S+/)?.[0] ?? "";
  expect(link).toContain(`/pledges/${code}`);
  await pledger.goto(`/campaign/${id}`);
  await expect(pledger.getByText("Closed", { exact: true })).toBeVisible();
  await expect(
    pledger.getByText("This campaign is closed and takes no new pledges or donations."),
  ).toBeVisible();
  await expect(pledger.getByRole("link", { name: "Pledge" })).toHaveCount(0);
  await expect(pledger.getByText("Ksh 3,000").first()).toBeVisible();
  await expectAccessible(pledger);
  await pledger.getByLabel("Your pledge code").fill(code.toLowerCase());
  await pledger.getByRole("button", { name: "Pay your pledge" }).click();
  await expect(pledger).toHaveURL(new URL(link).pathname);

  await pledger.getByRole("button", { name: "Pay now with M-Pesa" }).click();
  await expect(pledger.getByText("Check your phone and enter your M-Pesa PIN")).toBeVisible();
  await expect(pledger.getByText(/^Payment received\./)).toBeVisible({ timeout: 15_000 });
  await expect(pledger.getByText("Fully paid. Thank you for keeping your pledge!")).toBeVisible();
  await pledgerContext.close();
});

test("the activation fee's dialog states the amount and the campaign it activates before any PIN prompt", async ({
  page,
}) => {
  const title = `St. Paul's Choir Robes ${Date.now()}`;
  createChurchCampaign(title, "pending");
  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });

  await page.locator("article").filter({ hasText: title }).getByRole("button", { name: "Pay Now" }).click();
  const dialog = page.getByRole("dialog", { name: "Activate your campaign" });
  const summary = dialog.getByTestId("fee-summary");
  await expect(summary).toContainText("Activation fee: Ksh 1,000, once");
  await expect(summary).toContainText(`It makes “${title}” public, so it can take pledges and donations.`);
  await expect(summary).toContainText("Pledges and donations go to your organization's own accounts");
  await expect(dialog.getByText("Check your phone and enter your M-Pesa PIN")).toHaveCount(0);
  await expectAccessible(page);
});

test("Explore offers Church once a church campaign runs, and finds it there", async ({ page }) => {
  const title = `St. Paul's Bell Tower ${Date.now()}`;
  const id = createChurchCampaign(title);

  await page.goto("/explore");
  await page.getByRole("button", { name: "Church", exact: true }).click();

  await expect(page).toHaveURL(/category=church/);
  await expect(page.getByRole("button", { name: "Church", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByRole("link", { name: new RegExp(title) })).toHaveAttribute(
    "href",
    `/campaign/${id}`,
  );
  await expectAccessible(page);
});

test("on a 360 px phone the feedback button covers no field or hint, wherever the page is scrolled", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto("/signup");
  const button = page.getByRole("button", { name: "Send feedback" });
  await expect(button).toBeAttached();

  const overlaps = await page.evaluate(async () => {
    const feedback = document.querySelector<HTMLElement>('button[aria-label="Send feedback"]');
    const fields = [
      ...document.querySelectorAll<HTMLElement>("input, textarea, select, label, [id$='-hint']"),
    ];
    const found: string[] = [];
    for (let y = 0; y <= document.documentElement.scrollHeight; y += 80) {
      window.scrollTo(0, y);
      await new Promise(requestAnimationFrame);
      const b = feedback?.getBoundingClientRect();
      if (!b) continue;
      for (const field of fields) {
        const f = field.getBoundingClientRect();
        const apart = f.right <= b.left || f.left >= b.right || f.bottom <= b.top || f.top >= b.bottom;
        if (!apart && f.width > 0) found.push(`${field.tagName} ${field.id || field.textContent} at ${y}`);
      }
    }
    return found;
  });

  expect(overlaps).toEqual([]);
  await button.click();
  await expect(page.getByRole("dialog", { name: "Send us your feedback" })).toBeVisible();
});
