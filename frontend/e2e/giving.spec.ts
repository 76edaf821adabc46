import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { expectAccessible, test, uniqueEmail } from "./support";

/** A number of this run's own (ending in 5: none of the simulator's special endings), as typed and as E.164. */
function runPhone(): { typed: string; e164: string } {
  const digits = `${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}5`;
  return { typed: `07${digits}`, e164: `+2547${digits}` };
}

const inbox = (phone: string) => `/simulators/sms/inbound?phone=${encodeURIComponent(phone)}`;

async function text(page: Page, phone: string, message: string): Promise<void> {
  await page.goto(inbox(phone));
  await page.getByLabel("Message").fill(message);
  await page.getByRole("button", { name: /^Send to/ }).click();
  await expect(page.locator("#outcome")).toHaveText("Delivered.");
}

async function reply(page: Page, phone: string, fragment: string): Promise<string> {
  const found = page.locator("pre.reply").filter({ hasText: fragment });
  await expect(async () => {
    await page.goto(inbox(phone));
    await expect(found.first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  return (await found.first().textContent()) ?? "";
}

/** Signs up as support.ts's fillSignUp does, once the page has settled; a form a busy server refused as
 * expired (its CSRF token not yet there) is sent again once after a reload. */
async function signUp(
  page: Page,
  details: { firstName: string; lastName: string; phone: string },
): Promise<void> {
  const email = uniqueEmail("giving");
  page.on("pageerror", (error) => console.log(`page error: ${error.message}`));
  page.on("console", (message) => message.type() === "error" && console.log(`console: ${message.text()}`));
  for (const attempt of [1, 2]) {
    await page.goto("/signup");
    await page.waitForLoadState("networkidle");
    await page.getByLabel("First Name").fill(details.firstName);
    await page.getByLabel("Last Name").fill(details.lastName);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Phone Number").fill(details.phone);
    await page.getByLabel("ID Number").fill("12345678");
    await page.getByLabel("Password", { exact: true }).fill("Harambee#1");
    await page.getByLabel("Confirm Password", { exact: true }).fill("Harambee#1");
    await page.getByRole("button", { name: "Create Account" }).click();
    const expired = page.getByText("Your session has expired.", { exact: false });
    await Promise.race([
      page.waitForURL("**/dashboard", { timeout: 30_000 }),
      expired.waitFor({ timeout: 30_000 }),
    ]).catch(() => undefined);
    if (attempt === 2 || !(await expired.isVisible())) break;
  }
  await expect(page).toHaveURL("/dashboard", { timeout: 30_000 });
}

type Card = { id: number; title: string };

/** Two open campaigns of two different organizations in the demo data. */
async function campaignsOfTwoOrganizations(request: APIRequestContext): Promise<[Card, Card]> {
  const cards: Card[] = await (await request.get("/api/campaigns?page_size=50")).json();
  const chosen: { card: Card; organization: number }[] = [];
  for (const card of cards) {
    const detail = await (await request.get(`/api/campaigns/${card.id}`)).json();
    if (detail.status !== "active" || chosen.some((c) => c.organization === detail.organization_id)) continue;
    chosen.push({ card, organization: detail.organization_id });
    if (chosen.length === 2) break;
  }
  const [one, two] = chosen;
  if (!one || !two) throw new Error("The demo data has no open campaigns of two organizations.");
  return [one.card, two.card];
}

test("a giver verifies their phone and sees their pledges to two organizations, then downloads a statement", async ({
  browser,
  page,
}) => {
  test.setTimeout(360_000);
  const phone = runPhone();
  const [first, second] = await campaignsOfTwoOrganizations(page.request);

  // Pledged by SMS from the phone, to two organizations.
  await text(page, phone.e164, `pledge ${first.id} 1200`);
  await reply(page, phone.e164, "You pledged Ksh 1,200");
  await text(page, phone.e164, `pledge ${second.id} 800`);
  await reply(page, phone.e164, "You pledged Ksh 800");

  const member = await (await browser.newContext()).newPage();
  await signUp(member, { firstName: "Wanjiku", lastName: "Kamau", phone: phone.typed });
  await member.goto("/my-giving");
  await expect(member.getByRole("heading", { name: "My giving", level: 1 })).toBeVisible();
  const pledges = member.getByRole("region", { name: "Pledges" });
  await expect(pledges.getByText("No pledges found.")).toBeVisible(); // nothing before the number is proven
  await expectAccessible(member);

  await member.getByRole("button", { name: "Send code" }).click();
  const codeSms = await reply(page, phone.e164, "your code is");
  await member.getByLabel("Code from the SMS").fill(codeSms.match(/\b(\d{6})\b/)?.[1] ?? "");
  await member.getByRole("button", { name: "Verify" }).click();

  await expect(pledges.getByText(first.title, { exact: true }).first()).toBeVisible();
  await expect(pledges.getByText(second.title, { exact: true }).first()).toBeVisible();
  await expect(pledges.getByText("Pledged Ksh 1,200, paid Ksh 0, left Ksh 1,200")).toBeVisible();
  await expect(pledges.getByRole("listitem")).toHaveCount(2);
  await expectAccessible(member);

  const statement = member.getByRole("region", { name: "Statement of giving" });
  const [download] = await Promise.all([
    member.waitForEvent("download"),
    statement.getByRole("link", { name: "Download the statement" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^statement-\d{4}\.pdf$/);
  const pdf = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe("%PDF-");

  // Another person, signed in with a number of their own, sees none of it.
  const stranger = await (await browser.newContext()).newPage();
  await signUp(stranger, { firstName: "Otieno", lastName: "Ouma", phone: runPhone().typed });
  await stranger.goto("/my-giving");
  await expect(
    stranger.getByRole("region", { name: "Pledges" }).getByText("No pledges found."),
  ).toBeVisible();
  await expect(stranger.getByText(first.title)).toHaveCount(0);
});
