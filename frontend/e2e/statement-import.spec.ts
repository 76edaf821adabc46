import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { DEMO_PASSWORD, expectAccessible, MINISTRY_PAYBILL, signIn, test, uniqueEmail } from "./support";

// The demo organizer's organization (the ministry, paid into its paybill 600100) has this treasurer.
const DEMO_TREASURER = "treasurer@harambee.local";

/** A toast (Radix also copies its text into a screen-reader announcement, hence first()). */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

/** A pledge code with one character mistyped: never another pledge's code (its check character). */
const typo = (code: string) => `${code.slice(0, 3)}${code[3] === "Z" ? "Y" : "Z"}${code.slice(4)}`;

/** The M-Pesa Org Portal's CSV export: its preamble, its columns, one line a transaction. */
function orgPortalStatement(
  lines: { receipt: string; paidIn: number; withdrawn?: number; account: string }[],
) {
  const stamp = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19).replace("T", " ");
  const header =
    "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance," +
    "Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
  const rows = lines.map(({ receipt, paidIn, withdrawn, account }) =>
    [
      receipt,
      stamp,
      stamp,
      `Pay Bill from 254712***126 - JOHN DOE Acc. ${account}`,
      "Completed",
      paidIn ? `${paidIn}.00` : "",
      withdrawn ? `-${withdrawn}.00` : "",
      "",
      "true",
      withdrawn ? "Business Payment" : "Pay Bill Online",
      "254712***126 - JOHN DOE",
      "",
      account,
    ].join(","),
  );
  return ["Account Holder:,Ministry", `Short Code:,${MINISTRY_PAYBILL}`, "", header, ...rows].join("\n");
}

async function newPledge(
  request: APIRequestContext,
  name: string,
): Promise<{ code: string; campaignId: number }> {
  const campaignId = (await (await request.get("/api/ministry-campaign")).json()).campaign_id;
  const session = await (await request.get("/api/auth/session")).json();
  const created = await request.post("/api/pledges", {
    data: {
      campaign_id: campaignId,
      name,
      email: uniqueEmail("statement"),
      phone: "0722000888",
      amount: 5000,
    },
    headers: { "X-CSRFToken": session.csrf_token },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return { code: (await created.json()).code, campaignId };
}

test("a treasurer imports a statement, assigns its unmatched payment and undoes the import", async ({
  page,
}) => {
  test.slow();
  const stamp = String(Date.now()).slice(-9);
  const name = `Wekesa Statement ${stamp}`;
  const { code, campaignId } = await newPledge(page.request, name);
  const statement = orgPortalStatement([
    { receipt: `S${stamp}`, paidIn: 1500, account: code.toLowerCase() },
    { receipt: `U${stamp}`, paidIn: 700, account: typo(code) },
    { receipt: `W${stamp}`, paidIn: 0, withdrawn: 2000, account: "" },
  ]);

  await signIn(page, DEMO_TREASURER, { password: DEMO_PASSWORD, next: "/organizations" });
  const organizations = await (await page.request.get("/api/orgs")).json();
  const [ministry, paybillId] = await (async () => {
    for (const organization of organizations) {
      const accounts = await (
        await page.request.get(`/api/orgs/${organization.id}/collection-accounts`)
      ).json();
      const paybill = accounts.find(
        (account: { paybill_number: string }) => account.paybill_number === MINISTRY_PAYBILL,
      );
      if (paybill) return [organization, paybill.id];
    }
    throw new Error("The demo treasurer serves no organization with the ministry's paybill");
  })();
  await page.goto(`/organizations/${ministry.id}`);
  await page.getByRole("link", { name: "Import an M-Pesa or bank statement" }).click();
  await expect(page).toHaveURL(`/orgs/${ministry.id}/statements`);
  await expect(page.getByRole("heading", { name: "Import a statement" })).toBeVisible();

  // Upload: the preview says what each row will do, and nothing is credited yet.
  await page.getByLabel("Statement of").selectOption(String(paybillId));
  await page.getByLabel("Statement file").setInputFiles({
    name: "statement.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(statement),
  });
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("region", { name: /^Preview: statement\.csv/ });
  await expect(preview).toBeVisible();
  await expect(preview.getByRole("row", { name: /^Matched to a pledge 1 Ksh 1,500/ })).toBeVisible();
  await expect(preview.getByRole("row", { name: /^Unmatched 1 Ksh 700/ })).toBeVisible();
  await expect(preview.getByRole("row", { name: /^Ignored 1 Ksh 2,000/ })).toBeVisible();
  await expect(preview.getByText(new RegExp(`^Pledge ${code} \\(`))).toBeVisible();
  await expect(preview.getByText(`Unmatched: perhaps ${code}`)).toBeVisible();
  await expectAccessible(page);
  expect((await (await page.request.get(`/api/pledges/${code}`)).json()).remaining_amount).toBe(5000);

  // Confirm: the matched row is credited.
  await preview.getByRole("button", { name: "Confirm import" }).click();
  await expect(toastText(page, "Statement imported: 1 payments credited, 1 unmatched.")).toBeVisible();
  expect((await (await page.request.get(`/api/pledges/${code}`)).json()).remaining_amount).toBe(3500);

  // The unmatched row waits in Pledge Management, offered to the pledge one typo away.
  await page.goto(`/campaign/${campaignId}`);
  const assign = page.getByRole("button", { name: new RegExp(`^Assign to ${name}`) });
  await assign.click();
  await expect(page.getByText(new RegExp(`^Payment assigned to ${name}'s pledge`)).first()).toBeVisible();
  expect((await (await page.request.get(`/api/pledges/${code}`)).json()).remaining_amount).toBe(2800);

  // Undo: every payment the import recorded is reversed, the assigned one too.
  await page.goto(`/orgs/${ministry.id}/statements`);
  const imported = page.getByRole("listitem").filter({ hasText: "statement.csv" }).first();
  await imported.getByRole("button", { name: "Undo import…" }).click();
  await imported.getByRole("button", { name: "Undo the import" }).click();
  await expect(imported.getByText("Please give the reason for undoing the import.")).toBeVisible();
  await imported.getByLabel("Why undo this import?").fill("Imported into the wrong month");
  await expectAccessible(page);
  await imported.getByRole("button", { name: "Undo the import" }).click();
  await expect(toastText(page, "Import undone: its payments were reversed.")).toBeVisible();
  await expect(page.getByText(/Imported into the wrong month/).first()).toBeVisible();
  expect((await (await page.request.get(`/api/pledges/${code}`)).json()).remaining_amount).toBe(5000);
});

/** A bank's CSV export with columns of its own naming: a preamble, then one line a transaction. */
function bankStatement(
  lines: { reference: string; narration: string; moneyIn?: number; moneyOut?: number }[],
) {
  const today = new Date();
  const day = [today.getDate(), today.getMonth() + 1]
    .map((part) => String(part).padStart(2, "0"))
    .concat(String(today.getFullYear()))
    .join("/");
  const rows = lines.map(({ reference, narration, moneyIn, moneyOut }) =>
    [day, narration, reference, moneyOut ? `${moneyOut}.00` : "", moneyIn ? `${moneyIn}.00` : "", ""].join(
      ",",
    ),
  );
  return [
    "Account Name:,ICC Imara Building Fund",
    "Account Number:,1234567890",
    "",
    "Posted On,Narration,Ref,Withdrawals,Lodgements,Balance",
    ...rows,
  ].join("\n");
}

test("a treasurer maps a bank statement's columns once, previews and confirms it", async ({ page }) => {
  test.slow();
  const stamp = String(Date.now()).slice(-9);
  const { code } = await newPledge(page.request, `Achieng Bank ${stamp}`);
  const statement = bankStatement([
    { reference: `FT${stamp}`, narration: `MPESA C2B ${code} ACHIENG`, moneyIn: 2500 },
    { reference: `CHQ${stamp}`, narration: "CHEQUE TO CONTRACTOR", moneyOut: 300 },
  ]);
  const file = { name: "kcb.csv", mimeType: "text/csv", buffer: Buffer.from(statement) };

  await signIn(page, DEMO_TREASURER, { password: DEMO_PASSWORD, next: "/organizations" });
  const organizations = await (await page.request.get("/api/orgs")).json();
  const [ministry, bankId] = await (async () => {
    for (const organization of organizations) {
      const accounts = await (
        await page.request.get(`/api/orgs/${organization.id}/collection-accounts`)
      ).json();
      const bank = accounts.find(
        (account: { kind: string; account_number: string }) =>
          account.kind === "bank" && account.account_number === "1234567890",
      );
      if (bank) return [organization, bank.id];
    }
    throw new Error("The demo treasurer serves no organization with the ministry's bank account");
  })();
  await page.goto(`/orgs/${ministry.id}/statements`);

  // The columns step: the selects hold the file's header; those not guessed are chosen.
  await page.getByLabel("Statement of").selectOption(String(bankId));
  await page.getByLabel("Statement file").setInputFiles(file);
  await page.getByRole("button", { name: "Choose the columns" }).click();
  const columns = page.getByRole("form", { name: "Columns of kcb.csv" });
  await expect(columns.getByRole("heading", { name: "Columns of kcb.csv" })).toBeFocused();
  await expect(columns.getByLabel("Money out")).toHaveValue("Withdrawals");
  await expect(columns.getByLabel("Description")).toHaveValue("Narration");
  await columns.getByLabel("Date").selectOption("Posted On");
  await columns.getByLabel("Money in").selectOption("Lodgements");
  await expectAccessible(page);
  await columns.getByRole("button", { name: "Preview" }).click();

  const preview = page.getByRole("region", { name: /^Preview: kcb\.csv/ });
  await expect(preview.getByRole("row", { name: /^Matched to a pledge 1 Ksh 2,500/ })).toBeVisible();
  await expect(preview.getByRole("row", { name: /^Ignored 1 Ksh 300/ })).toBeVisible();
  await expect(preview.getByRole("columnheader", { name: "Reference" })).toBeVisible();
  await expect(preview.getByText(new RegExp(`^Pledge ${code} \\(`))).toBeVisible();
  await preview.getByRole("button", { name: "Confirm import" }).click();
  await expect(toastText(page, "Statement imported: 1 payments credited, 0 unmatched.")).toBeVisible();
  expect((await (await page.request.get(`/api/pledges/${code}`)).json()).remaining_amount).toBe(2500);

  // The same statement again: the account's columns come chosen, and its row is already recorded.
  await page.getByLabel("Statement of").selectOption(String(bankId));
  await page.getByLabel("Statement file").setInputFiles(file);
  await page.getByRole("button", { name: "Choose the columns" }).click();
  await expect(columns.getByText(/The columns chosen last time for this account are selected/)).toBeVisible();
  await expect(columns.getByLabel("Money in")).toHaveValue("Lodgements");
  await columns.getByRole("button", { name: "Preview" }).click();
  await expect(preview.getByRole("row", { name: /^Already recorded 1 Ksh 2,500/ })).toBeVisible();
  await expect(preview.getByRole("row", { name: /^Matched to a pledge 0 Ksh 0/ })).toBeVisible();
});
