import { type Browser, expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signedInPage, signIn, test } from "./support";

// The demo organizer's organization has a treasurer and a viewer (backend/organizations/demo.py): two
// owners and treasurers, so every change to where its money is paid waits for the other to approve.
const DEMO_TREASURER = "treasurer@harambee.local";
const DEMO_VIEWER = "viewer@harambee.local";

type Member = { email: string };
type Account = { till_number: string; label: string };

/** The organization the organizer owns whose team has the demo treasurer. */
async function demoOrganizationId(page: Page): Promise<number> {
  const organizations: { id: number; role: string }[] = await (await page.request.get("/api/orgs")).json();
  for (const organization of organizations.filter((one) => one.role === "owner")) {
    const members: Member[] = await (await page.request.get(`/api/orgs/${organization.id}/members`)).json();
    if (members.some((member) => member.email === DEMO_TREASURER)) return organization.id;
  }
  throw new Error("the demo organizer's organization has the demo treasurer");
}

const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test("an owner adds a till, it waits for the treasurer, who approves it, and campaigns can then choose it", async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  // A till belongs to one organization only: a new one on each run.
  const till = String(7_000_000 + (Date.now() % 1_000_000));
  const label = `Youth till ${till}`;

  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
  const orgId = await demoOrganizationId(page);
  await page.goto(`/organizations/${orgId}`);
  await page.getByRole("link", { name: "Collection accounts: where the money is paid" }).click();
  await expect(page).toHaveURL(`/organizations/${orgId}/collection-accounts`);
  await expect(page.getByRole("heading", { name: "Collection accounts", level: 1 })).toBeVisible();
  await expect(page.getByText("Harambee never holds your money", { exact: false })).toBeVisible();
  await expectAccessible(page);

  const accounts = page.getByRole("region", { name: "Accounts" });
  await accounts.getByLabel("Kind of account").selectOption("till");
  await accounts.getByLabel("Till Number").fill("51-23");
  await accounts.getByRole("button", { name: "Add account" }).click();
  await expect(accounts.getByText("Please enter a valid till number (digits only).")).toBeVisible();
  await accounts.getByLabel("Till Number").fill(till);
  await accounts.getByLabel("Name for the team (optional)").fill(label);
  await accounts.getByRole("button", { name: "Add account" }).click();
  await expect(toastText(page, "Waiting for approval")).toBeVisible();

  const description = `Add M-Pesa till (Buy Goods) ${till} (${label}) as a collection account.`;
  const approvals = page.getByRole("region", { name: "Changes waiting for approval" });
  const request = approvals.getByRole("listitem").filter({ hasText: description });
  await expect(request).toBeVisible();
  // Whoever asked may withdraw, never approve.
  await expect(request.getByRole("button", { name: "Withdraw" })).toBeVisible();
  await expect(request.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(accounts.getByText(label)).toHaveCount(0);
  await expectAccessible(page);

  // The treasurer approves on the same page: the till takes effect.
  const treasurer = await signedInPage(
    browser,
    DEMO_TREASURER,
    `/organizations/${orgId}/collection-accounts`,
  );
  const pending = treasurer
    .getByRole("region", { name: "Changes waiting for approval" })
    .getByRole("listitem")
    .filter({ hasText: description });
  await pending.getByRole("button", { name: "Approve" }).click();
  await expect(toastText(treasurer, "Approved: the change has taken effect.")).toBeVisible();
  await expect(
    treasurer
      .getByRole("region", { name: "Accounts" })
      .getByText(`${label} · M-Pesa Till (Buy Goods) ${till}`),
  ).toBeVisible();
  await treasurer.context().close();

  // It is now one of the accounts the wizard's payment step and a campaign's accounts offer.
  const offered: Account[] = await (await page.request.get(`/api/orgs/${orgId}/collection-accounts`)).json();
  expect(offered.map((account) => account.till_number)).toContain(till);
  await page.reload();
  await expect(accounts.getByText(`${label} · M-Pesa Till (Buy Goods) ${till}`)).toBeVisible();
});

test("a treasurer sets the account-number keywords; a viewer sees them and can change nothing", async ({
  browser,
  page,
}) => {
  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
  const orgId = await demoOrganizationId(page);
  const path = `/organizations/${orgId}/collection-accounts`;

  const treasurer = await signedInPage(browser, DEMO_TREASURER, path);
  const keywords = treasurer.getByRole("region", { name: "Account numbers that are not for Harambee" });
  await keywords.getByLabel("Keywords, separated by commas").fill("tithe, Sadaka, OFFERING, x");
  await keywords.getByRole("button", { name: "Save keywords" }).click();
  await expect(keywords.getByText("Keywords are 2 to 20 letters or digits: X")).toBeVisible();
  await keywords.getByLabel("Keywords, separated by commas").fill("tithe, Sadaka, OFFERING");
  await keywords.getByRole("button", { name: "Save keywords" }).click();
  await expect(toastText(treasurer, "Keywords saved.")).toBeVisible();
  await expect(keywords.getByLabel("Keywords, separated by commas")).toHaveValue("OFFERING, SADAKA, TITHE");
  await treasurer.context().close();

  const viewer = await signedInPage(browser, DEMO_VIEWER, path);
  const shown = viewer.getByRole("list", { name: "Keywords" });
  await expect(shown.getByRole("listitem")).toHaveText(["OFFERING", "SADAKA", "TITHE"]);
  await expect(
    viewer.getByText("Only owners and treasurers can change where the money is paid."),
  ).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Add account" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Save keywords" })).toHaveCount(0);
  await expectAccessible(viewer);
  await viewer.context().close();
});

const TURKANA = "Mission Trip to Turkana: Bibles and Food";

/** The treasurer approves, on the Collection accounts page, the waiting change `description` names. */
async function treasurerApproves(browser: Browser, orgId: number, description: string | RegExp) {
  const treasurer = await signedInPage(
    browser,
    DEMO_TREASURER,
    `/organizations/${orgId}/collection-accounts`,
  );
  await treasurer
    .getByRole("region", { name: "Changes waiting for approval" })
    .getByRole("listitem")
    .filter({ hasText: description })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(toastText(treasurer, "Approved: the change has taken effect.")).toBeVisible();
  await treasurer.context().close();
}

test("an owner changes an account's details and switches a campaign to it; each waits for the treasurer", async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const label = `Mission till ${Date.now() % 1_000_000}`;
  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
  const orgId = await demoOrganizationId(page);
  const [campaign] = await (
    await page.request.get(`/api/campaigns?q=${encodeURIComponent("Turkana")}`)
  ).json();
  const current: { id: number }[] = await (
    await page.request.get(`/api/campaigns/${campaign.id}/collection-accounts`)
  ).json();
  const owned: (Account & { id: number; kind: string })[] = await (
    await page.request.get(`/api/orgs/${orgId}/collection-accounts`)
  ).json();
  // A till the campaign is not paid into yet.
  const till = owned.find(
    (account) => account.kind === "till" && !current.some((one) => one.id === account.id),
  );
  if (!till) throw new Error("the demo organization has a till the Turkana campaign does not use");

  // Its details: the form checks them with the wizard's messages, and the change waits.
  await page.goto(`/organizations/${orgId}/collection-accounts`);
  const accounts = page.getByRole("region", { name: "Accounts" });
  const row = accounts
    .getByRole("listitem")
    .filter({ hasText: `M-Pesa Till (Buy Goods) ${till.till_number}` });
  await row.getByRole("button", { name: /^Change / }).click();
  const form = row.locator("form");
  await form.getByLabel("Till Number").fill("");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("This field is required.")).toBeVisible();
  await form.getByLabel("Till Number").fill(till.till_number);
  await form.getByLabel("Name for the team (optional)").fill(label);
  await expectAccessible(page);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(toastText(page, "Waiting for approval")).toBeVisible();
  const approvals = page.getByRole("region", { name: "Changes waiting for approval" });
  await expect(approvals.getByRole("listitem").filter({ hasText: `(${label}).` })).toBeVisible();
  await treasurerApproves(browser, orgId, `(${label}).`);
  await page.reload();
  await expect(accounts.getByText(`${label} · M-Pesa Till (Buy Goods) ${till.till_number}`)).toBeVisible();

  // The campaign's accounts, on its edit page: the wizard's rules, then a switch that waits.
  await page.goto(`/edit-campaign/${campaign.id}`);
  const section = page.getByRole("region", { name: "Where givers pay" });
  await expect(section.getByLabel("Payment method 1")).toHaveValue(String(current[0]?.id));
  await expect(section.getByRole("button", { name: "Remove payment method 1" })).toHaveCount(0);
  await section.getByRole("button", { name: "Add Payment Method" }).click();
  await section.getByLabel("Payment method 2").selectOption(String(current[0]?.id));
  await section.getByRole("button", { name: "Save payment accounts" }).click();
  await expect(section.getByText("Each payment method can be used only once.")).toBeVisible();
  await section.getByLabel("Payment method 2").selectOption(String(till.id));
  await expectAccessible(page);
  await section.getByRole("button", { name: "Save payment accounts" }).click();
  await expect(toastText(page, "Waiting for approval")).toBeVisible();
  const asked = `Take the payments of the campaign '${TURKANA}' into`;
  const request = section.getByRole("listitem").filter({ hasText: asked });
  await expect(request).toContainText(label);
  await expect(request.getByRole("button", { name: "Withdraw" })).toBeVisible();
  await treasurerApproves(browser, orgId, asked);

  const detail: { payment_instructions: { number?: string }[] } = await (
    await page.request.get(`/api/campaigns/${campaign.id}`)
  ).json();
  expect(JSON.stringify(detail.payment_instructions)).toContain(till.till_number);
  await page.reload();
  await expect(section.getByLabel("Payment method 2")).toHaveValue(String(till.id));
});
