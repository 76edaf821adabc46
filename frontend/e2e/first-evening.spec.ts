import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatter } from "@lingui/format-po";
import { type Browser, type BrowserContext, expect, type Page } from "@playwright/test";
import { EMAIL_DIR, test, uniqueEmail } from "./support";

// Issue #45's acceptance journey: a church's first evening, as a new committee plays it on the built
// app, once in English and once in Kiswahili. Every person is new on each run (the suite is sharded by
// file, so nothing here may lean on another spec's state); only the simulators stand in for Safaricom.

const ROOT = join(import.meta.dirname, "..", "..");
const SERVER_DIR = join(ROOT, ".tmp", `e2e-${process.env.E2E_PORT ?? 8123}`);
// The server's database: scripts/e2e-server.sh's SQLite file, or the PostgreSQL one it was given.
const DATABASE_URL = process.env.E2E_DATABASE_URL || `sqlite:///${join(SERVER_DIR, "db.sqlite3")}`;
const CATALOGUE = join(import.meta.dirname, "..", "src", "locales", "sw", "messages.po");
// The owner's number, whose activation fee the Daraja simulator pays (as in payments.spec.ts).
const OWNER_PHONE = "0712345678";
// Safaricom's sandbox number: the Daraja simulator pays STK Pushes to it successfully after 2 s.
const PAYING_PHONE = "0708374149";

type Language = "en" | "sw";
/** A text of the app in the journey's language: its English message, looked up in the Kiswahili
 * catalogue, with its {placeholders} filled in. */
type Translate = (message: string, values?: Record<string, string | number>) => string;

async function translator(language: Language): Promise<Translate> {
  const translations = new Map<string, string>();
  if (language === "sw") {
    const catalogue = await formatter({ lineNumbers: false }).parse(readFileSync(CATALOGUE, "utf-8"), {
      locale: "sw",
      sourceLocale: "en",
      filename: CATALOGUE,
    });
    for (const { message, translation } of Object.values(catalogue)) {
      if (message && translation) translations.set(message, translation);
    }
  }
  return (message, values = {}) => {
    const text = language === "en" ? message : translations.get(message);
    if (text === undefined) throw new Error(`No Kiswahili for "${message}" in ${CATALOGUE}`);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
  };
}

/** A toast (Radix also copies its text into a screen-reader announcement, hence first()). */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

/** A browser of one person of the committee, in the journey's language. */
async function personIn(browser: Browser, language: Language): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ locale: language === "sw" ? "sw-KE" : "en-KE" });
  await context.addCookies([
    { name: "django_language", value: language, url: test.info().project.use.baseURL ?? "" },
  ]);
  return context.newPage();
}

/** A Kenyan number of this run: what a person types, and its E.164 form as the SMS outbox shows it. */
function runPhone(): { typed: string; e164: string } {
  const digits = String(Date.now()).slice(-8);
  return { typed: `07${digits}`, e164: `+2547${digits}` };
}

/** Signs up through the form and waits for the dashboard. */
async function signUp(
  page: Page,
  tr: Translate,
  person: { firstName: string; lastName: string; email: string; phone: string },
): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel(tr("First Name"), { exact: true }).fill(person.firstName);
  await page.getByLabel(tr("Last Name"), { exact: true }).fill(person.lastName);
  await page.getByLabel(tr("Email"), { exact: true }).fill(person.email);
  await page.getByLabel(tr("Phone Number"), { exact: true }).fill(person.phone);
  await page.getByLabel(tr("ID Number"), { exact: true }).fill("12345678");
  await page.getByLabel(tr("Password"), { exact: true }).fill("Harambee#1");
  await page.getByLabel(tr("Confirm Password"), { exact: true }).fill("Harambee#1");
  await page.getByRole("button", { name: tr("Create Account") }).click();
  await expect(page).toHaveURL("/dashboard", { timeout: 20_000 });
}

/** The invitation link e-mailed to `to` (Django's file backend writes one file per batch), or "". */
function invitationLinkIn(to: string): string {
  for (const name of readdirSync(EMAIL_DIR)) {
    for (const message of readFileSync(join(EMAIL_DIR, name), "utf-8").split(/^-{79}$/m)) {
      const link =
        message.includes(`To: ${to}`) && /https?:\/\/[^\s"]+\/invitation\?token=[\w-]+/.exec(message);
      if (link) return link[0];
    }
  }
  return "";
}

/** The newest SMS to `e164` in the simulator's outbox that matches `text`, waiting for the task worker. */
async function smsTo(browser: Browser, e164: string, text: RegExp): Promise<string> {
  const outbox = await browser.newPage();
  const message = outbox
    .locator("article")
    .filter({ hasText: `To ${e164}` })
    .locator("pre")
    .filter({ hasText: text });
  await expect(async () => {
    await outbox.goto("/simulators/sms/outbox");
    await expect(message.first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  const body = (await message.first().textContent()) ?? "";
  await outbox.close();
  return body;
}

/** Gives the paybill its own app in the Daraja simulator, as Safaricom's portal does when the church
 * registers on Daraja: the credentials the owner then types into Harambee. */
function registerDarajaApp(
  paybill: string,
  church: string,
): { key: string; secret: string; passkey: string } {
  const credentials = { key: `key-${paybill}`, secret: `secret-${paybill}`, passkey: `passkey-${paybill}` };
  const code = `
import json, os
from simulators.daraja import daraja_app_register
app = json.loads(os.environ["E2E_DARAJA_APP"])
daraja_app_register(**app)
`;
  execFileSync(join(ROOT, ".venv", "bin", "python"), ["manage.py", "shell", "-c", code], {
    cwd: join(ROOT, "backend"),
    env: {
      ...process.env,
      DATABASE_URL,
      E2E_DARAJA_APP: JSON.stringify({
        shortcode: paybill,
        consumer_key: credentials.key,
        consumer_secret: credentials.secret,
        passkey: credentials.passkey,
        organization_name: church,
      }),
    },
  });
  return credentials;
}

/** The treasurer approves every change waiting on `path`'s "Changes waiting for approval". */
async function treasurerApproves(treasurer: Page, tr: Translate, path: string, description: RegExp) {
  await treasurer.goto(path);
  const request = treasurer
    .getByRole("region", { name: tr("Changes waiting for approval") })
    .getByRole("listitem")
    .filter({ hasText: description });
  await request.getByRole("button", { name: tr("Approve") }).click();
  await expect(toastText(treasurer, tr("Approved: the change has taken effect."))).toBeVisible({
    timeout: 15_000,
  });
}

/** Continue in the wizard, once the draft has been saved on the server. */
async function continueAndSave(page: Page, tr: Translate) {
  const saved = page.waitForResponse(
    (response) => response.url().includes("/api/campaign-drafts") && response.request().method() !== "GET",
  );
  await page.getByRole("button", { name: tr("Continue"), exact: true }).click();
  expect((await saved).ok()).toBe(true);
}

function inDays(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

// A real 1x1 PNG: the server opens and re-encodes it.
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

for (const language of ["en", "sw"] as const) {
  test(`a church's first evening, in ${language === "en" ? "English" : "Kiswahili"}: named, its team, its paybill connected, a pledge paid by PIN prompt and one by paybill`, async ({
    browser,
  }) => {
    test.setTimeout(360_000);
    const tr = await translator(language);
    const run = `${Date.now() % 1_000_000}`;
    const church = `PCEA St. Andrew's ${language.toUpperCase()} ${run}`;
    // A paybill belongs to one organization only: a new one on each run and in each language.
    const paybill = String((language === "en" ? 300_000 : 400_000) + (Date.now() % 100_000));

    // The owner signs up, creates and names the church.
    const owner = await personIn(browser, language);
    await signUp(owner, tr, {
      firstName: "Akinyi",
      lastName: `Owner ${run}`,
      email: uniqueEmail(`owner-${language}`),
      phone: OWNER_PHONE,
    });
    await owner.goto("/organizations");
    await expect(owner.locator("html")).toHaveAttribute("lang", language);
    const create = owner.getByRole("region", { name: tr("Create your organization") });
    await create.getByLabel(tr("Name of the organization")).fill(church);
    await create.getByLabel(tr("Kind of organization")).selectOption({ label: tr("Church") });
    await create.getByLabel(tr("County (optional)")).fill("Kiambu");
    await create.getByRole("button", { name: tr("Create organization") }).click();
    await expect(owner).toHaveURL(/\/organizations\/\d+$/);
    const orgId = Number(owner.url().split("/").pop());
    await expect(owner.getByRole("heading", { level: 1, name: church })).toBeVisible();

    // Invitations: the treasurer by e-mail, the usher by SMS; the roles are chosen by their names.
    const invitations = owner.getByRole("region", { name: tr("Invitations") });
    const role = invitations.getByLabel(tr("Role"), { exact: true });
    const roleNames = await role.locator("option").allTextContents();
    expect(roleNames.every((name) => name.trim() !== "")).toBe(true);
    const treasurerEmail = uniqueEmail(`treasurer-${language}`);
    await invitations.getByLabel(tr("Email"), { exact: true }).check();
    await invitations.getByLabel(tr("Their email address")).fill(treasurerEmail);
    await role.selectOption({ label: tr("Treasurer") });
    await invitations.getByRole("button", { name: tr("Send invitation") }).click();
    await expect(toastText(owner, tr("Invitation sent to {0}.", { 0: treasurerEmail }))).toBeVisible();

    const usherPhone = runPhone();
    await invitations.getByLabel(tr("SMS"), { exact: true }).check();
    await invitations.getByLabel(tr("Their Kenyan phone number")).fill(usherPhone.typed);
    await role.selectOption({ label: tr("Usher") });
    await invitations.getByRole("button", { name: tr("Send invitation") }).click();
    await expect(toastText(owner, tr("Invitation sent to {0}.", { 0: usherPhone.e164 }))).toBeVisible();

    // The treasurer signs up with the invited address and accepts the e-mailed link.
    const treasurer = await personIn(browser, language);
    const treasurerName = `Wanjiru ${run}`;
    await signUp(treasurer, tr, {
      firstName: treasurerName,
      lastName: "Kamau",
      email: treasurerEmail,
      phone: "0722000111",
    });
    let link = "";
    await expect
      .poll(() => (link = invitationLinkIn(treasurerEmail)), { timeout: 60_000, message: "the invitation" })
      .not.toBe("");
    await treasurer.goto(new URL(link).pathname + new URL(link).search);
    await treasurer.getByRole("button", { name: tr("Accept the invitation") }).click();
    await expect(treasurer).toHaveURL(`/organizations/${orgId}`);
    await expect(toastText(treasurer, tr("Welcome to the team!"))).toBeVisible();

    // The usher signs up with the invited number, verifies it with the texted code and accepts.
    const invitationSms = await smsTo(browser, usherPhone.e164, /invitation\?token=/);
    const usherLink = new URL(invitationSms.match(/https?:\/\/\S+/)?.[0] ?? "");
    const usher = await personIn(browser, language);
    await signUp(usher, tr, {
      firstName: "Otieno",
      lastName: `Usher ${run}`,
      email: uniqueEmail(`usher-${language}`),
      phone: usherPhone.typed,
    });
    await usher.goto(usherLink.pathname + usherLink.search);
    await usher.getByRole("button", { name: tr("Send code") }).click();
    const codeSms = await smsTo(browser, usherPhone.e164, /\b\d{6}\b/);
    await usher.getByLabel(tr("Code from the SMS")).fill(codeSms.match(/\b(\d{6})\b/)?.[1] ?? "");
    await usher.getByRole("button", { name: tr("Verify") }).click();
    await usher.getByRole("button", { name: tr("Accept the invitation") }).click();
    await expect(usher).toHaveURL(`/organizations/${orgId}`);
    await usher.context().close();

    // The team, as the owner sees it: each role by its name.
    await owner.reload();
    const team = owner.getByRole("region", { name: tr("Team") });
    await expect(team.getByLabel(tr("Role of {0}", { 0: `${treasurerName} Kamau` }))).toHaveValue(
      "treasurer",
    );
    await expect(team.getByLabel(tr("Role of {0}", { 0: `Otieno Usher ${run}` }))).toHaveValue("usher");
    await expect(
      team.getByLabel(tr("Role of {0}", { 0: `Otieno Usher ${run}` })).locator("option:checked"),
    ).toHaveText(tr("Usher"));

    // The paybill: added, then its Daraja credentials and Connect; each waits for the treasurer.
    const accountsPath = `/organizations/${orgId}/collection-accounts`;
    await owner.goto(accountsPath);
    const accounts = owner.getByRole("region", { name: tr("Accounts") });
    await accounts.getByLabel(tr("Kind of account")).selectOption("paybill");
    await accounts.getByLabel(tr("Paybill Number"), { exact: true }).fill(paybill);
    await accounts.getByRole("button", { name: tr("Add account") }).click();
    await expect(toastText(owner, tr("Waiting for approval"))).toBeVisible();
    await treasurerApproves(treasurer, tr, accountsPath, new RegExp(paybill));

    const listed: { id: number; paybill_number: string }[] = await (
      await owner.request.get(`/api/orgs/${orgId}/collection-accounts`)
    ).json();
    const accountId = listed.find((account) => account.paybill_number === paybill)?.id;
    expect(accountId).toBeDefined();
    const mpesaPath = `/orgs/${orgId}/collection-accounts/${accountId}/mpesa`;
    const credentials = registerDarajaApp(paybill, church);
    await owner.goto(mpesaPath);
    await owner.getByLabel(tr("Consumer key")).fill(credentials.key);
    await owner.getByLabel(tr("Consumer secret")).fill(credentials.secret);
    await owner.getByLabel(tr("Lipa Na M-Pesa passkey")).fill(credentials.passkey);
    await owner.getByLabel(tr("Nominated Safaricom number (for Pull Transactions)")).fill(OWNER_PHONE);
    await owner.getByRole("button", { name: tr("Save credentials") }).click();
    await expect(toastText(owner, tr("Waiting for approval"))).toBeVisible();
    await treasurerApproves(treasurer, tr, mpesaPath, /./);

    await owner.reload();
    await owner.getByRole("button", { name: tr("Connect"), exact: true }).click();
    await expect(toastText(owner, tr("Waiting for approval"))).toBeVisible();
    // Approving calls M-Pesa (the simulator) outside any transaction: it answers at once.
    await treasurerApproves(treasurer, tr, mpesaPath, /./);
    await owner.reload();
    await expect(owner.getByRole("button", { name: tr("Re-register") })).toBeVisible();

    // The wizard: the campaign is the church's, paid into its own paybill.
    const title = `Church Roof ${language.toUpperCase()} ${run}`;
    await owner.goto("/pledge/create-campaign");
    await expect(owner.getByRole("heading", { level: 2, name: tr("Choose category") })).toBeVisible();
    await owner.getByRole("button", { name: tr("Church"), exact: true }).click();
    await continueAndSave(owner, tr);
    await owner.getByLabel(tr("Goal amount (KES)")).fill("250000");
    await owner.getByLabel(tr("End date")).fill(inDays(60));
    await continueAndSave(owner, tr);
    await owner.getByLabel(tr("Campaign title")).fill(title);
    await owner
      .getByLabel(tr("Your story"))
      .fill("Our church in Kiambu needs a new roof before the long rains come. Every shilling helps.");
    await continueAndSave(owner, tr);
    await owner
      .getByLabel(tr("Photo or video"))
      .setInputFiles({ name: "roof.png", mimeType: "image/png", buffer: TINY_PNG });
    await expect(owner.getByRole("img", { name: tr("Cover preview") })).toBeVisible();
    await continueAndSave(owner, tr);
    await owner.getByLabel(tr("Method"), { exact: true }).selectOption(`account:${accountId}`);
    await continueAndSave(owner, tr);
    await expect(owner.getByRole("heading", { level: 2, name: tr("Review & publish") })).toBeVisible();

    // Publishing: the fee is shown, and paid by M-Pesa.
    const created = owner.waitForResponse((response) => response.url().endsWith("/api/pledging-campaigns"));
    await owner.getByRole("button", { name: tr("Launch Campaign") }).click();
    const { id: campaignId } = await (await created).json();
    const setup = owner.getByRole("dialog", { name: tr("Complete Your Campaign Setup") });
    await expect(setup.getByTestId("fee-summary")).toContainText(/Ksh [\d,]+/);
    await setup.getByRole("button", { name: tr("Pay activation fee") }).click();
    const activation = owner.getByRole("dialog", { name: tr("Activate your campaign") });
    await activation.getByRole("button", { name: tr("Send payment request") }).click();
    await expect
      .poll(async () => (await (await owner.request.get(`/api/campaigns/${campaignId}`)).json()).status, {
        timeout: 30_000,
        message: "the campaign is activated",
      })
      .toBe("active");
    const campaign = await (await owner.request.get(`/api/campaigns/${campaignId}`)).json();
    expect(campaign.organization_name).toBe(church);
    await owner.context().close();

    // A giver pledges and pays by the PIN prompt, into the church's own paybill.
    const giver = await personIn(browser, language);
    const promptPledger = `Chebet Prompt ${run}`;
    await giver.goto(`/campaign/${campaignId}/pledge`);
    let dialog = giver.getByRole("dialog", { name: tr("Pledge to {0}", { 0: title }) });
    await expect(dialog.getByLabel(tr("Full name"))).toBeFocused();
    await dialog.getByLabel(tr("Full name")).fill(promptPledger);
    await dialog.getByLabel(tr("Email"), { exact: true }).fill(uniqueEmail("prompt"));
    await dialog.getByLabel(tr("Phone number")).fill(PAYING_PHONE);
    await dialog.getByLabel(tr("Amount (Ksh)")).fill("2000");
    await dialog.getByRole("button", { name: tr("Submit pledge") }).click();
    await expect(dialog.getByTestId("pledge-code")).toBeVisible();
    await dialog.getByRole("button", { name: tr("Pay now with M-Pesa") }).click();
    await expect(dialog.getByText(tr("Fully paid. Thank you for keeping your pledge!"))).toBeVisible({
      timeout: 30_000,
    });

    // Another pledges and pays by paybill, with the pledge code as the account number.
    const paybillPledger = `Mwangi Paybill ${run}`;
    await giver.goto(`/campaign/${campaignId}/pledge`);
    dialog = giver.getByRole("dialog", { name: tr("Pledge to {0}", { 0: title }) });
    await expect(dialog.getByLabel(tr("Full name"))).toBeFocused();
    await dialog.getByLabel(tr("Full name")).fill(paybillPledger);
    await dialog.getByLabel(tr("Email"), { exact: true }).fill(uniqueEmail("paybill"));
    await dialog.getByLabel(tr("Phone number")).fill("0722000333");
    await dialog.getByLabel(tr("Amount (Ksh)")).fill("3000");
    await dialog.getByRole("button", { name: tr("Submit pledge") }).click();
    const code = ((await dialog.getByTestId("pledge-code").textContent()) ?? "").trim();
    expect(code).toMatch(/^[A-Z0-9]{6,8}$/);
    const paid = await giver.request.post("/simulators/daraja/c2b/simulate", {
      data: { ShortCode: paybill, BillRefNumber: code, Amount: 3000, MSISDN: "254722000333" },
    });
    expect(paid.ok(), await paid.text()).toBe(true);
    await giver.context().close();

    // The treasurer sees both paid.
    await treasurer.goto(`/campaign/${campaignId}`);
    const management = treasurer.getByRole("region", { name: tr("Pledge Management") });
    for (const pledger of [promptPledger, paybillPledger]) {
      const row = management.locator("li, tr").filter({ hasText: pledger, visible: true }).first();
      await expect(async () => {
        await treasurer.reload();
        await expect(row).toContainText(tr("Confirmed"), { timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
    }
    await treasurer.context().close();
  });
}
