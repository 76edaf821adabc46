import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, expect, type Page } from "@playwright/test";
import {
  DEMO_ORGANIZER,
  EMAIL_DIR,
  expectAccessible,
  fillSignUp,
  signIn,
  test,
  uniqueEmail,
} from "./support";

// The demo organizer's organization has a treasurer and a viewer (backend/organizations/demo.py), so
// a new treasurer joins only once a second owner or treasurer approves (the two-person rule).
const DEMO_TREASURER = "treasurer@harambee.local";
const DEMO_VIEWER = "viewer@harambee.local";

/** A Kenyan number of this run: what the owner types, and its E.164 form as the SMS outbox shows it. */
function runPhone(): { typed: string; e164: string } {
  const digits = String(Date.now()).slice(-8);
  return { typed: `07${digits}`, e164: `+2547${digits}` };
}

/** The newest SMS to `e164` in the simulator's outbox that contains `text`, waiting for the task worker. */
async function smsTo(browser: Browser, e164: string, text: string): Promise<string> {
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

/** The invitation link e-mailed to `to` (Django's file backend writes one file per batch), or "". */
function invitationLinkIn(directory: string, to: string): string {
  for (const name of readdirSync(directory)) {
    for (const message of readFileSync(join(directory, name), "utf-8").split(/^-{79}$/m)) {
      const link =
        message.includes(`To: ${to}`) && /https?:\/\/[^\s"]+\/invitation\?token=[\w-]+/.exec(message);
      if (link) return link[0];
    }
  }
  return "";
}

async function organizationId(page: Page): Promise<number> {
  const organizations = await (await page.request.get("/api/orgs")).json();
  return organizations[0].id;
}

const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test("an owner invites a treasurer by phone, who verifies the number and joins once another approves", async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const phone = runPhone();

  // The owner sends the invitation by SMS.
  await signIn(page, DEMO_ORGANIZER, { next: "/organizations" });
  await page.getByRole("link", { name: /Owner/ }).first().click();
  const orgId = await organizationId(page);
  await expect(page).toHaveURL(`/organizations/${orgId}`);
  const invitations = page.getByRole("region", { name: "Invitations" });
  await invitations.getByLabel("SMS").check();
  await invitations.getByLabel("Their Kenyan phone number").fill(phone.typed);
  await invitations.getByLabel("Role").selectOption("treasurer");
  await invitations.getByRole("button", { name: "Send invitation" }).click();
  await expect(toastText(page, `Invitation sent to ${phone.e164}.`)).toBeVisible();
  await expect(invitations.getByText(phone.e164)).toBeVisible();
  await expectAccessible(page);

  // The SMS carries the link, without the organization's or the owner's name.
  const invitationSms = await smsTo(browser, phone.e164, "invitation?token=");
  expect(invitationSms).not.toContain("Grace");
  const link = new URL(invitationSms.match(/https?:\/\/\S+/)?.[0] ?? "");

  // The invitee signs up, opens the link, verifies the number with the texted code and accepts.
  const invitee = await (await browser.newContext()).newPage();
  const name = `Wanjiru ${Date.now()}`;
  await fillSignUp(invitee, {
    firstName: name,
    lastName: "Kamau",
    email: uniqueEmail("treasurer"),
    phone: phone.typed,
  });
  await expect(invitee).toHaveURL("/dashboard");
  await invitee.goto(link.pathname + link.search);
  await expect(invitee.getByRole("heading", { name: "Invitation to a team" })).toBeVisible();
  const accept = invitee.getByRole("button", { name: "Accept the invitation" });
  await expect(accept).toBeDisabled();
  await invitee.getByRole("button", { name: "Send code" }).click();
  const codeSms = await smsTo(browser, phone.e164, "your code is");
  const code = codeSms.match(/\b(\d{6})\b/)?.[1] ?? "";
  await invitee.getByLabel("Code from the SMS").fill(code);
  await expectAccessible(invitee);
  await invitee.getByRole("button", { name: "Verify" }).click();
  await expect(invitee.getByText(`${phone.e164} is verified.`)).toBeVisible();
  await accept.click();
  await expect(invitee).toHaveURL(`/organizations/${orgId}`);
  await expect(toastText(invitee, "Invitation accepted")).toBeVisible();

  // The owner who invited cannot approve it; the demo treasurer, a second guardian, can.
  await page.reload();
  const approvals = page.getByRole("region", { name: "Changes waiting for approval" });
  const request = approvals
    .getByRole("listitem")
    .filter({ hasText: `Add ${name} Kamau to the team as treasurer` });
  await expect(request).toBeVisible();
  await expect(request.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(request.getByRole("button", { name: "Withdraw" })).toBeVisible();

  const treasurer = await (await browser.newContext()).newPage();
  await signIn(treasurer, DEMO_TREASURER, { next: `/organizations/${orgId}` });
  const waiting = treasurer
    .getByRole("region", { name: "Changes waiting for approval" })
    .getByRole("listitem")
    .filter({ hasText: `Add ${name} Kamau` });
  await expectAccessible(treasurer);
  await waiting.getByRole("button", { name: "Approve" }).click();
  await expect(toastText(treasurer, "Approved: the change has taken effect.")).toBeVisible();
  await treasurer.context().close();

  // The new treasurer confirms a pledge of the organization's campaign.
  const campaignId = (await (await invitee.request.get("/api/ministry-campaign")).json()).campaign_id;
  const pledger = `Otieno Team ${Date.now()}`;
  const session = await (await invitee.request.get("/api/auth/session")).json();
  const created = await invitee.request.post("/api/pledges", {
    data: {
      campaign_id: campaignId,
      name: pledger,
      email: uniqueEmail("pledger"),
      phone: "0722000555",
      amount: 3000,
    },
    headers: { "X-CSRFToken": session.csrf_token },
  });
  expect(created.ok(), await created.text()).toBe(true);
  await invitee.goto(`/campaign/${campaignId}`);
  await expect(invitee.getByText("Your role:").first()).toBeVisible();
  const row = invitee
    .getByRole("region", { name: "Pledge Management" })
    .locator("li, tr")
    .filter({ hasText: pledger, visible: true })
    .first();
  await row.getByRole("button", { name: /^Confirm payment/ }).click();
  const confirm = invitee.getByRole("alertdialog", { name: "Confirm payment?" });
  await confirm.getByRole("button", { name: "Confirm payment" }).click();
  await expect(toastText(invitee, "Payment confirmed successfully!")).toBeVisible();
  await expect(row.getByRole("button", { name: /^Confirmed/ })).toBeDisabled();
  await invitee.context().close();
});

test("a viewer sees the team, the approvals and the pledges but cannot act", async ({ page }) => {
  await signIn(page, DEMO_VIEWER, { next: "/organizations" });
  const orgId = await organizationId(page);
  await page.goto(`/organizations/${orgId}`);
  await expect(page.getByText("Only owners can change the team and send invitations.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Team" }).getByText(DEMO_ORGANIZER)).toBeVisible();
  await expect(page.getByRole("region", { name: "Invitations" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: /^Role of/ })).toHaveCount(0);
  await expectAccessible(page);

  const campaignId = (await (await page.request.get("/api/ministry-campaign")).json()).campaign_id;
  await page.goto(`/campaign/${campaignId}`);
  const management = page.getByRole("region", { name: "Pledge Management" });
  await expect(management.locator("li, tr").filter({ visible: true }).first()).toBeVisible();
  await expect(management.getByRole("button", { name: /^Confirm payment/ })).toHaveCount(0);
  await expect(management.getByRole("button", { name: /^Record payment/ })).toHaveCount(0);
  await expect(page.getByText("Your role:").first()).toBeVisible();
});

test("an usher who joins finds the desk on the dashboard, and leaving the team lands on My organizations", async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("usher");
  await signIn(page, DEMO_ORGANIZER, { next: "/organizations" });
  const orgId = await organizationId(page);
  const { csrf_token } = await (await page.request.get("/api/auth/session")).json();
  const invited = await page.request.post(`/api/orgs/${orgId}/invitations`, {
    headers: { "X-CSRFToken": csrf_token },
    data: { email, phone: "", role: "usher" },
  });
  expect(invited.status()).toBe(201);

  const usher = await (await browser.newContext()).newPage();
  await fillSignUp(usher, { firstName: "Otieno", lastName: `Usher ${Date.now()}`, email });
  await expect(usher).toHaveURL("/dashboard");
  // The task worker sends it, with the sign-up's welcome: it may take a while on a busy machine.
  let link = "";
  await expect
    .poll(() => (link = invitationLinkIn(EMAIL_DIR, email)), { timeout: 60_000, message: "the invitation" })
    .not.toBe("");
  await usher.goto(new URL(link).pathname + new URL(link).search);
  await usher.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(usher).toHaveURL(`/organizations/${orgId}`);

  // The usher's way to the desk: each running campaign's card links it.
  const campaignId = (await (await usher.request.get("/api/ministry-campaign")).json()).campaign_id;
  await usher.goto("/dashboard");
  const desk = usher
    .getByRole("link", { name: /^Usher's desk for / })
    .and(usher.locator(`a[href="/campaign/${campaignId}/desk"]`));
  await expect(desk).toBeVisible();

  // Leaving: the organization's page is no longer theirs, so the app goes to My organizations.
  const failures: string[] = [];
  usher.on("response", (response) => {
    if (response.status() === 404 && response.url().includes(`/api/orgs/${orgId}`))
      failures.push(response.url());
  });
  await usher.goto(`/organizations/${orgId}`);
  await usher.getByRole("button", { name: "Leave the team" }).click();
  await expect(usher).toHaveURL("/organizations");
  await expect(usher.getByRole("heading", { name: "My organizations" })).toBeVisible();
  await expect(toastText(usher, "You left Kiambu Revival Ministry.")).toBeVisible();
  await expect(usher.getByRole("alert")).toHaveCount(0);
  expect(failures).toEqual([]);
});
