import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { expectAccessible, fillSignUp, test, uniqueEmail } from "./support";

async function ministryCampaignId(request: APIRequestContext): Promise<number> {
  const response = await request.get("/api/ministry-campaign");
  expect(response.ok()).toBe(true);
  return (await response.json()).campaign_id;
}

/** A number of this run's own (ending in 5: none of the simulator's special endings), as typed and as E.164. */
function runPhone(): { typed: string; e164: string } {
  const digits = `${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}5`;
  return { typed: `07${digits}`, e164: `+2547${digits}` };
}

const inbox = (phone: string) => `/simulators/sms/inbound?phone=${encodeURIComponent(phone)}`;

/** Texts the shortcode from `phone` on the simulator's page, as Africa's Talking delivers it. */
async function text(page: Page, phone: string, message: string): Promise<void> {
  await page.goto(inbox(phone));
  await page.getByLabel("Message").fill(message);
  await page.getByRole("button", { name: /^Send to/ }).click();
  await expect(page.locator("#outcome")).toHaveText("Delivered.");
}

/** The newest SMS texted back to `phone` that contains `fragment`, waiting for the task worker. */
async function reply(page: Page, phone: string, fragment: string): Promise<string> {
  const found = page.locator("pre.reply").filter({ hasText: fragment });
  await expect(async () => {
    await page.goto(inbox(phone));
    await expect(found.first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  return (await found.first().textContent()) ?? "";
}

test("a pledge by SMS is paid with PAY and the PIN, then claimed on the web once the number is verified", async ({
  browser,
  page,
}) => {
  // Nobody polls a payment started by SMS: the success is confirmed by the payments' follow-up (about 15 s).
  test.setTimeout(180_000);
  const id = await ministryCampaignId(page.request);
  const phone = runPhone();

  await text(page, phone.e164, `pledge ${id}  1,200`);
  await expectAccessible(page);
  const confirmation = await reply(page, phone.e164, "You pledged Ksh 1,200");
  const code = confirmation.match(/code (\w{7})\./)?.[1];
  expect(code, confirmation).toBeTruthy();

  await text(page, phone.e164, "BAL");
  expect(await reply(page, phone.e164, "Your pledges:")).toContain(`${code} `);

  await text(page, phone.e164, `PAY ${code}`);
  await reply(page, phone.e164, `Enter your M-Pesa PIN when asked, to pay Ksh 1,200 for pledge ${code}.`);
  // The simulated phone enters the PIN.
  await expect
    .poll(async () => (await (await page.request.get(`/api/pledges/${code}`)).json()).status, {
      timeout: 60_000,
    })
    .toBe("confirmed");
  await text(page, phone.e164, "salio");
  await reply(page, phone.e164, "Ahadi zako zote zimelipwa kikamilifu. Asante!");

  // The pledger signs up on the web with the number, proves it and finds the pledge to claim.
  const member = await (await browser.newContext()).newPage();
  await fillSignUp(member, {
    firstName: "Achieng",
    lastName: "Otieno",
    email: uniqueEmail("sms.pledger"),
    phone: phone.typed,
  });
  await expect(member).toHaveURL("/dashboard");
  await member.goto("/my-pledges");
  await expect(member.getByRole("heading", { name: "My pledges", level: 1 })).toBeVisible();
  await expect(member.getByText("You have no pledges in your account yet.")).toBeVisible();
  await expect(member.getByText(code ?? "")).toHaveCount(0); // nothing shown before the number is proven
  await expectAccessible(member);

  await member.getByRole("button", { name: "Send code" }).click();
  const codeSms = await reply(page, phone.e164, "your code is");
  const otp = codeSms.match(/\b(\d{6})\b/)?.[1] ?? "";
  await member.getByLabel("Code from the SMS").fill(otp);
  await member.getByRole("button", { name: "Verify" }).click();

  const claim = member.getByRole("group", { name: /1 pledge was made by USSD or SMS from/ });
  await expect(claim).toBeVisible();
  await expect(claim.getByRole("checkbox")).toBeChecked();
  await expect(claim).toContainText(`code ${code}`);
  await expectAccessible(member);
  await member.getByRole("button", { name: "Add to my account" }).click();

  await expect(member.getByText("The pledges are now in your account.").first()).toBeVisible();
  const mine = member.getByRole("region", { name: "Your pledges" });
  await expect(mine.getByText(`Ksh 1,200, code ${code}, paid Ksh 1,200`)).toBeVisible();
  await expect(member.getByText(/are waiting to be added to your account/)).toBeVisible();
  await mine.getByRole("link").first().click();
  await expect(member).toHaveURL(`/pledges/${code}`);
});
