import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { expectAccessible, test } from "./support";

async function ministryCampaignId(request: APIRequestContext): Promise<number> {
  const response = await request.get("/api/ministry-campaign");
  expect(response.ok()).toBe(true);
  return (await response.json()).campaign_id;
}

/** A number of this run's own (ending in 5: none of the simulator's special endings), as +2547…. */
function uniquePhone(): string {
  return `+2547${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}5`;
}

/** The feature phone of the USSD simulator: dial, then answer screen by screen. */
async function dial(page: Page, phone: string): Promise<void> {
  await page.goto("/simulators/ussd");
  await page.getByLabel("Phone number").fill(phone);
  await page.getByRole("button", { name: /^Dial/ }).click();
  await expect(page.locator("#screen")).toContainText("1. Pledge");
}

async function answer(page: Page, text: string): Promise<string> {
  await page.getByLabel("Answer").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForLoadState("domcontentloaded");
  return (await page.locator("#screen").textContent()) ?? "";
}

test("a pledge made by USSD on a feature phone, then paid with the M-Pesa PIN", async ({ page }) => {
  // Nobody polls a USSD payment: the success is confirmed by the payments' own follow-up (about 15 s).
  test.setTimeout(90_000);
  const id = await ministryCampaignId(page.request);
  const phone = uniquePhone();

  await page.goto(`/campaign/${id}`);
  await expect(page.getByText(`Dial *384*4242# and enter ${id}`).first()).toBeVisible();

  await dial(page, phone);
  expect(await answer(page, "1")).toContain("Enter the campaign number:");
  expect(await answer(page, String(id))).toContain("Amount to pledge in Ksh:");
  expect(await answer(page, "1200")).toContain("How will you pay Ksh 1,200?");
  expect(await answer(page, "1")).toContain("Show your pledge publicly?");
  expect(await answer(page, "1")).toContain("Pledge Ksh 1,200 to");
  const thanks = await answer(page, "1");
  const code = thanks.match(/Your pledge code is (\w{7})\./)?.[1];
  expect(code, thanks).toBeTruthy();
  await expect(page.getByText("Session ended.")).toBeVisible();

  await dial(page, phone);
  expect(await answer(page, "2")).toContain(`1. ${code}`);
  expect(await answer(page, "1")).toContain("Left to pay: Ksh 1,200");
  expect(await answer(page, "1")).toContain(
    `Enter your M-Pesa PIN when asked, to pay Ksh 1,200 for pledge ${code}.`,
  );

  // The prompt goes out a few seconds after the last screen; the simulated phone pays it.
  await expect
    .poll(async () => (await (await page.request.get(`/api/pledges/${code}`)).json()).status, {
      timeout: 45_000,
    })
    .toBe("confirmed");
  await page.goto(`/pledges/${code}`);
  await expect(page.getByText("Ksh 1,200").first()).toBeVisible();

  await dial(page, phone);
  expect(await answer(page, "3")).toContain("You have no open pledges.");
});

test("the printable poster shows the dial code and the campaign number", async ({ page }) => {
  const id = await ministryCampaignId(page.request);

  await page.goto(`/campaign/${id}/poster`);

  await expect(page.getByText("Dial *384*4242#", { exact: true })).toBeVisible();
  await expect(page.getByText(`Campaign number ${id}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  await expectAccessible(page);
});
