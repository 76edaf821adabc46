import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { expectAccessible, test, uniqueEmail } from "./support";

const ROOT = join(import.meta.dirname, "..", "..");
const DATABASE = join(ROOT, ".tmp", `e2e-${process.env.E2E_PORT ?? 8123}`, "db.sqlite3");
// A real 1x1 PNG: the server opens and re-encodes it.
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const STORY = "Our church in Kisumu needs a new roof before the long rains come. Every shilling helps.";

/** A toast (Radix also copies its text into a screen-reader announcement, hence first()). */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

/** A new organizer, signed in in this page's browser. */
async function signUp(page: Page): Promise<string> {
  const email = uniqueEmail("wizard");
  const { csrf_token } = await (await page.request.get("/api/auth/session")).json();
  const response = await page.request.post("/api/signup", {
    headers: { "X-CSRFToken": csrf_token },
    data: {
      first_name: "Akinyi",
      last_name: "Odhiambo",
      email,
      phone: "0712345678",
      id_number: "23456789",
      password: "Harambee#1",
      confirm_password: "Harambee#1",
    },
  });
  expect(response.status()).toBe(201);
  return email;
}

/** Makes `email` a subscriber (has_paid) in the e2e server's database, as a paid subscription would. */
function makeSubscriber(email: string): void {
  const code = `
import datetime, os
from django.utils import timezone
from accounts.models import User
from payments.models import Payment, Subscription
user = User.objects.get(email=os.environ["E2E_EMAIL"])
payment = Payment.objects.create(provider="card", purpose="subscription", amount=2500, user=user, status="succeeded")
now = timezone.now()
Subscription.objects.create(user=user, payment=payment, starts_at=now, ends_at=now + datetime.timedelta(days=30))
`;
  execFileSync(join(ROOT, ".venv", "bin", "python"), ["manage.py", "shell", "-c", code], {
    cwd: join(ROOT, "backend"),
    env: { ...process.env, DATABASE_URL: `sqlite:///${DATABASE}`, E2E_EMAIL: email },
  });
}

function inDays(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

async function expectStep(page: Page, counter: string, title: string) {
  await expect(page.getByText(counter, { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
}

/** Continue, and wait until the draft has been saved on the server. */
async function continueAndSave(page: Page) {
  const saved = page.waitForResponse(
    (response) => response.url().includes("/api/campaign-drafts") && response.request().method() !== "GET",
  );
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  expect((await saved).ok()).toBe(true);
}

async function fillFirstSteps(page: Page, total: number, title: string) {
  await expectStep(page, `Step 1 of ${total}`, "Choose category");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByText("Category is required")).toBeVisible();
  const church = page.getByRole("button", { name: "Church", exact: true });
  await church.click();
  await expect(church).toHaveAttribute("aria-pressed", "true");
  await continueAndSave(page);

  await expectStep(page, `Step 2 of ${total}`, "Set your goal");
  await expect(page.getByText("fundraisers typically aim for KES 50,000 or more")).toBeVisible();
  await expect(page.getByLabel("Goal amount (KES)")).toHaveAttribute("placeholder", "100000");
  await page.getByLabel("Goal amount (KES)").fill("0");
  await page.getByLabel("End date").fill(inDays(-1));
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByText("Goal must be a whole number of at least 1")).toBeVisible();
  await expect(page.getByText("End date cannot be in the past")).toBeVisible();
  await page.getByLabel("Goal amount (KES)").fill("250000");
  await page.getByLabel("End date").fill(inDays(60));
  await continueAndSave(page);

  await expectStep(page, `Step 3 of ${total}`, "Tell your story");
  await page.getByLabel("Campaign title").fill(title);
  await page.getByLabel("Your story").fill(STORY);
  await continueAndSave(page);
}

/** Organizations first: a new organizer names the church the campaign is for, then the wizard starts. */
async function createOrganization(page: Page, name: string) {
  const form = page.getByRole("region", { name: "Create your organization" });
  await expect(form).toBeVisible();
  await expectAccessible(page);
  await form.getByRole("button", { name: "Create organization" }).click();
  await expect(form.getByText("Please choose church, ministry, school or group.")).toBeVisible();
  await form.getByLabel("Name of the organization").fill(name);
  await form.getByLabel("Kind of organization").selectOption({ label: "Church" });
  await form.getByLabel("County (optional)").fill("Kisumu");
  await form.getByRole("button", { name: "Create organization" }).click();
}

test("a non-subscriber creates a campaign in six steps, resumes after a reload, and it waits for payment", async ({
  page,
}) => {
  // Six steps, a reload and an accessibility check on most of them: past 30 s twice in a run at a load of 13.
  test.setTimeout(60_000);
  await signUp(page);
  const title = `Kisumu Church Roof ${Date.now()}`;
  // A till belongs to one organization only: a new one on each run, as each run signs up a new organizer.
  const till = String(5_000_000 + (Date.now() % 1_000_000));
  await page.goto("/pledge/create-campaign");
  const church = `Kisumu Central SDA ${Date.now()}`;
  await createOrganization(page, church);
  await expectAccessible(page);
  await fillFirstSteps(page, 6, title);

  // Reload in the middle: the server's draft brings the wizard back to the same step, with its data.
  await expectStep(page, "Step 4 of 6", "Add media");
  await page.reload();
  await expectStep(page, "Step 4 of 6", "Add media");
  await page.getByRole("button", { name: "Back", exact: true }).click();
  await expect(page.getByLabel("Campaign title")).toHaveValue(title);
  await continueAndSave(page);

  await expectStep(page, "Step 4 of 6", "Add media");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByText("Please upload an image or video.")).toBeVisible();
  await page
    .getByLabel("Photo or video")
    .setInputFiles({ name: "roof.png", mimeType: "image/png", buffer: TINY_PNG });
  const preview = page.getByRole("img", { name: "Cover preview" });
  await expect(preview).toHaveAttribute("src", /^\/media\/uploads\/\d{14}-[0-9a-f]{16}\.png$/);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await expectAccessible(page);
  await continueAndSave(page);

  await expectStep(page, "Step 5 of 6", "Collection accounts");
  await expect(page.getByText("Please provide at least one valid payment method to continue.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove payment method 1" })).toHaveCount(0);
  await page.getByLabel("Method").selectOption({ label: "M-Pesa Till (Buy Goods)" });
  await page.getByLabel("Till Number").fill("51-23");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByText("Please enter a valid till number (digits only).")).toBeVisible();
  await page.getByLabel("Till Number").fill(till);
  await expect(page.getByText("Great! You have provided valid payment details.")).toBeVisible();
  await page.getByRole("button", { name: "Add Payment Method" }).click();
  const second = page.getByRole("group", { name: "Payment method 2" });
  await second.getByLabel("Method").selectOption({ label: "Cash" });
  await expect(page.getByText("Please provide at least one valid payment method to continue.")).toBeVisible();
  await second.getByLabel("Location").fill("Church office after the Sunday service");
  await expect(page.getByText("Great! You have provided valid payment details.")).toBeVisible();
  await expectAccessible(page);
  await continueAndSave(page);

  await expectStep(page, "Step 6 of 6", "Review & publish");
  await expect(page.getByText("Ksh 250,000")).toBeVisible();
  await expect(page.getByText("Church office after the Sunday service")).toBeVisible();
  await page.getByRole("button", { name: "Edit goal" }).click();
  await expectStep(page, "Step 2 of 6", "Set your goal");
  await page.getByLabel("Goal amount (KES)").fill("300000");
  // Continue after an Edit goes straight back to the review.
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByText("Step 6 of 6", { exact: true })).toBeVisible();
  await expect(page.getByText("Ksh 300,000")).toBeVisible();
  await expectAccessible(page);

  const created = page.waitForResponse((response) => response.url().endsWith("/api/pledging-campaigns"));
  await page.getByRole("button", { name: "Launch Campaign" }).click();
  const { id } = await (await created).json();

  const setup = page.getByRole("dialog", { name: "Complete Your Campaign Setup" });
  // The fee's amount and its button, with the subscription named as the other choice.
  await expect(setup.getByTestId("fee-summary")).toContainText("Activation fee: Ksh");
  await expect(setup.getByRole("button", { name: "Pay activation fee" })).toBeVisible();
  await expect(setup.getByRole("button", { name: "Pay for the subscription" })).toBeVisible();
  await expect(setup.getByText(/^Or the subscription instead: Ksh [\d,]+ for \d+ days/)).toBeVisible();
  await expectAccessible(page);
  await setup.getByRole("button", { name: "Later" }).click();

  const thanks = page.getByRole("dialog", { name: "Thank You for Your Interest!" });
  await expect(thanks.getByRole("radio", { name: "3" })).toBeChecked();
  await thanks.getByRole("checkbox", { name: /follow-up interview/ }).check();
  await expect(thanks.getByLabel("Your e-mail or phone number")).toBeVisible();
  await expectAccessible(page);
  await thanks.getByRole("button", { name: "Close" }).click();

  await expect(page).toHaveURL("/dashboard");
  const card = page.locator("article").filter({ hasText: title });
  await expect(card.getByText("Payment Required")).toBeVisible();
  const campaign = await (await page.request.get(`/api/campaigns/${id}`)).json();
  expect([campaign.status, campaign.goal, campaign.category, campaign.media_type]).toEqual([
    "pending",
    300000,
    "church",
    "image",
  ]);
  // The church named first is the campaign's organization: the one givers pay, never the organizer.
  expect(campaign.organization_name).toBe(church);
  // The church's own new till and cash point, as its page tells givers to pay.
  expect(
    campaign.payment_instructions.map((instruction: { summary: string }) => instruction.summary),
  ).toEqual([
    `Buy Goods till ${till}`,
    "Cash at Church office after the Sunday service, mention your pledge code",
  ]);

  // The draft was completed: the wizard starts afresh.
  await page.goto("/pledge/create-campaign");
  await expectStep(page, "Step 1 of 6", "Choose category");
  await expect(page.getByRole("button", { name: "Church", exact: true })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
});

test("a subscriber skips collection accounts: five steps, and the campaign is active at once", async ({
  page,
}) => {
  const email = await signUp(page);
  makeSubscriber(email);
  const title = `Youth Choir Trip ${Date.now()}`;
  await page.goto("/pledge/create-campaign");
  await createOrganization(page, `Youth Choir ${Date.now()}`);
  await fillFirstSteps(page, 5, title);

  await expectStep(page, "Step 4 of 5", "Add media");
  await page.getByRole("radio", { name: "YouTube link" }).check();
  await page.getByRole("textbox", { name: "YouTube link" }).fill("https://vimeo.com/76979871");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByText("Please enter a valid YouTube link.")).toBeVisible();
  await page.getByRole("textbox", { name: "YouTube link" }).fill("https://youtu.be/dQw4w9WgXcQ");
  await expect(page.getByRole("img", { name: "Video thumbnail" })).toBeVisible();
  await continueAndSave(page);

  // Step 4 leads to the review, and back.
  await expectStep(page, "Step 5 of 5", "Review & publish");
  await page.getByRole("button", { name: "Back", exact: true }).click();
  await expectStep(page, "Step 4 of 5", "Add media");
  await continueAndSave(page);
  await expectStep(page, "Step 5 of 5", "Review & publish");
  await expect(page.getByText("Collection accounts", { exact: true })).toHaveCount(0);

  const created = page.waitForResponse((response) => response.url().endsWith("/api/pledging-campaigns"));
  await page.getByRole("button", { name: "Launch Campaign" }).click();
  const { id } = await (await created).json();
  await expect(toastText(page, "Your campaign is live.")).toBeVisible();
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  const campaign = await (await page.request.get(`/api/campaigns/${id}`)).json();
  expect([campaign.status, campaign.media_type, campaign.youtube_id, campaign.payment_instructions]).toEqual([
    "active",
    "youtube",
    "dQw4w9WgXcQ",
    [],
  ]);
});

test("the legacy wizard creates a fundraiser and lands on its page", async ({ page }) => {
  await signUp(page);
  const title = `Medical Bills for Baby Neema ${Date.now()}`;
  await page.goto("/start-fundraiser");
  await expectStep(page, "Step 1 of 6", "Choose category");
  await page.getByRole("button", { name: "Health", exact: true }).click();
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  await expectStep(page, "Step 2 of 6", "Goal and duration");
  await expect(page.getByLabel("Duration (days)")).toHaveValue("30");
  await page.getByLabel("Goal amount (KES)").fill("80000");
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  await expectStep(page, "Step 3 of 6", "Tell your story");
  await page.getByLabel("Campaign title").fill(title);
  await page.getByLabel("Your story").fill(`${"Neema was born early and needs care. ".repeat(4)}Thank you.`);
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  await expectStep(page, "Step 4 of 6", "Add media");
  await page
    .getByLabel("Photo or video")
    .setInputFiles({ name: "neema.png", mimeType: "image/png", buffer: TINY_PNG });
  await expect(page.getByRole("img", { name: "Cover preview" })).toBeVisible();
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  await expectStep(page, "Step 5 of 6", "Bank details");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByText("Bank name is required")).toBeVisible();
  await page.getByLabel("Bank name").selectOption("KCB Bank Kenya Ltd");
  await page.getByLabel("Account name").fill("Neema Family");
  await page.getByLabel("Account number").fill("1100223344");
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  await expectStep(page, "Step 6 of 6", "Review & publish");
  await expect(page.getByText("Ksh 80,000")).toBeVisible();
  // The story and bank sections are edited right on the review.
  await expect(page.getByLabel("Account name")).toHaveValue("Neema Family");
  await page.getByLabel("Campaign title").fill(`${title}!`);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create Fundraiser" }).click();

  await expect(toastText(page, "Success!")).toBeVisible();
  await expect(toastText(page, "Your fundraiser was created successfully.")).toBeVisible();
  await expect(page).toHaveURL(/\/campaign\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: `${title}!` })).toBeVisible();
  const id = page.url().split("/").pop();
  const campaign = await (await page.request.get(`/api/campaigns/${id}`)).json();
  expect([campaign.type, campaign.status, campaign.description.endsWith("...")]).toEqual([
    "fundraising",
    "pending",
    true,
  ]);
  expect(
    campaign.payment_instructions.map((instruction: { summary: string }) => instruction.summary),
  ).toEqual(["KCB Bank Kenya Ltd account 1100223344 (Neema Family), reference your pledge code"]);
});

test("the wizards need a sign-in; the success screen is public", async ({ page }) => {
  await page.goto("/pledge/create-campaign");
  await expect(page).toHaveURL("/signin?next=%2Fpledge%2Fcreate-campaign");
  await page.goto("/start-fundraiser");
  await expect(page).toHaveURL("/signin?next=%2Fstart-fundraiser");

  await page.goto("/fundraiser-success");
  await expect(
    page.getByRole("heading", { name: "Your fundraiser was successfully created!" }),
  ).toBeVisible();
  await expect(page.getByText("Our support will contact you soon.")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page).toHaveURL(/\/signin/);
});
