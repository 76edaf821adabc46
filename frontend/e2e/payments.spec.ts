import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signIn, test, uniqueEmail } from "./support";

const ROOT = join(import.meta.dirname, "..", "..");
const DATABASE = join(ROOT, ".tmp", `e2e-${process.env.E2E_PORT ?? 8123}`, "db.sqlite3");
// The demo organizer's campaign that awaits its activation fee (backend/campaigns/demo.py).
const DEMO_PENDING_CAMPAIGN = "Youth Camp 2026 at Brackenhurst";

/** A pending pledging campaign of `email`, made in the e2e server's database as the wizard would. */
function createPendingCampaign(email: string, title: string): void {
  const code = `
import datetime, json, os
from django.utils import timezone
from accounts.models import User
from campaigns.models import Campaign
from organizations.services import organization_choose_for_campaign
email, title = json.loads(os.environ["E2E_CAMPAIGN"])
organizer = User.objects.get(email=email)
Campaign.objects.create(
    organizer=organizer, organization=organization_choose_for_campaign(user=organizer, organization_id=None),
    title=title, description="A campaign to activate.",
    story="Created by the payments end-to-end test.", category="community", goal=50000,
    end_date=timezone.localdate() + datetime.timedelta(days=30),
)
`;
  execFileSync(join(ROOT, ".venv", "bin", "python"), ["manage.py", "shell", "-c", code], {
    cwd: join(ROOT, "backend"),
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:///${DATABASE}`,
      E2E_CAMPAIGN: JSON.stringify([email, title]),
    },
  });
}

/** The campaign's card, found by its text: while the dialog is open the page behind is hidden from roles. */
function campaignCard(page: Page, title: string) {
  return page.locator("article").filter({ hasText: title });
}

test("the demo organizer activates the pending campaign by M-Pesa from the dashboard", async ({ page }) => {
  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });

  const card = campaignCard(page, DEMO_PENDING_CAMPAIGN);
  await expect(card.getByText("Payment Required")).toBeVisible();
  await expect(card.getByText("Complete payment to activate your campaign")).toBeVisible();
  await expect(card.getByRole("button", { name: "View Campaign" })).toBeDisabled();

  await card.getByRole("button", { name: "Pay Now" }).click();
  const dialog = page.getByRole("dialog", { name: "Activate your campaign" });
  await expect(dialog.getByRole("radio", { name: "M-Pesa" })).toBeChecked();
  // The organizer's own number, which the Daraja simulator pays successfully.
  await expect(dialog.getByLabel("M-Pesa phone number")).toHaveValue("+254712345678");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Send payment request" }).click();

  await expect(dialog.getByText("Check your phone and enter your M-Pesa PIN")).toBeVisible();
  await expect(dialog.getByText("Amount: Ksh 1,000")).toBeVisible();
  // The simulated payer answers after 2 s; the dialog polls every second.
  await expect(dialog.getByText(/^Payment received\. Receipt HRB-\d{6}-\d{6}$/)).toBeVisible({
    timeout: 15_000,
  });

  // The dashboard already knows, without a reload.
  await expect(card.getByText("Payment Required")).toBeHidden();
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByRole("link", { name: "View Campaign" })).toHaveAttribute(
    "href",
    /^\/campaign\/\d+$/,
  );
});

test("a new organizer activates a pending campaign on the hosted card checkout inside the dialog", async ({
  page,
}) => {
  const email = uniqueEmail("card");
  const session = await (await page.request.get("/api/auth/session")).json();
  const signUp = await page.request.post("/api/signup", {
    data: {
      first_name: "Achieng",
      last_name: "Odhiambo",
      email,
      phone: "0722000444",
      id_number: "23456789",
      password: "Harambee#1",
      confirm_password: "Harambee#1",
    },
    headers: { "X-CSRFToken": session.csrf_token },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const title = `Choir Uniforms ${Date.now()}`;
  createPendingCampaign(email, title);

  await page.goto("/dashboard");
  const card = campaignCard(page, title);
  await expect(card.getByText("Payment Required")).toBeVisible();
  await card.getByRole("button", { name: "Pay Now" }).click();

  const dialog = page.getByRole("dialog", { name: "Activate your campaign" });
  await dialog.getByText("Card", { exact: true }).click();
  await dialog.getByRole("button", { name: "Continue to card payment" }).click();

  // The simulated Paystack page, framed by us: allowed by its headers and our frame-src.
  const checkout = page.frameLocator('iframe[title="Card payment"]');
  await expect(checkout.getByText("KES 1,000.00")).toBeVisible();
  await checkout.getByRole("button", { name: "Pay" }).click();

  await expect(dialog.getByText(/^Payment received\. Receipt HRB-\d{6}-\d{6}$/)).toBeVisible({
    timeout: 15_000,
  });
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(card.getByText("Payment Required")).toBeHidden();
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
});
