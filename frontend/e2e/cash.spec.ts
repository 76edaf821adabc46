import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signedInPage, signIn, test } from "./support";

// Issue 32, item 4: after a night at the desk, the treasurer counts each usher's cash against what their
// desk recorded, sees the differences, and signs the count off; an envelope a desk delivers later is
// shown apart, the signed figures unchanged. The owner manages the volunteers' passcodes on the events
// page: a revoked one stops at once.

// The demo organizer's organization has a treasurer (backend/organizations/demo.py).
const DEMO_TREASURER = "treasurer@harambee.local";

async function ministryCampaignId(request: APIRequestContext): Promise<number> {
  const response = await request.get("/api/ministry-campaign");
  expect(response.ok()).toBe(true);
  return (await response.json()).campaign_id;
}

/** An API call in a browser's session with its CSRF token, as the app makes it; answers the response. */
async function send(page: Page, path: string, data: object = {}) {
  const session = await (await page.request.get("/api/auth/session")).json();
  return page.request.post(path, { headers: { "X-CSRFToken": session.csrf_token }, data });
}

async function post(page: Page, path: string, data: object = {}) {
  const response = await send(page, path, data);
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

function cashEntry(amount: number) {
  return { idempotency_key: crypto.randomUUID(), kind: "cash", amount, name: "", phone: "" };
}

test("the treasurer counts each usher's cash, sees the differences and signs off; a late envelope is shown apart", async ({
  page: owner,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const id = await ministryCampaignId(request);
  const title = `Cash night ${Date.now()}`;

  // The owner opens tonight's event (any other open one closed first: one at a time).
  await signIn(owner, DEMO_ORGANIZER, { next: "/dashboard" });
  const events = await (await owner.request.get(`/api/campaigns/${id}/events`)).json();
  for (const open of events.filter((event: { state: string }) => event.state === "open")) {
    await post(owner, `/api/events/${open.id}/close`);
  }
  const now = Date.now();
  const event = await post(owner, `/api/campaigns/${id}/events`, {
    title,
    starts_at: new Date(now).toISOString(),
    ends_at: new Date(now + 3 * 3_600_000).toISOString(),
  });
  await post(owner, `/api/events/${event.id}/open`);

  // On the events page the owner issues a volunteer's passcode.
  await owner.goto(`/campaign/${id}/events`);
  await owner.getByRole("button", { name: `Desk passcodes of ${title}` }).click();
  await owner.getByLabel("Volunteer's name").fill("Mary Wambui");
  await owner.getByRole("button", { name: "Issue a passcode" }).click();
  const passcode = (await owner.locator("strong.font-mono").textContent()) ?? "";
  await expect(owner.getByText(/^Mary Wambui · works$/)).toBeVisible();

  // Envelopes at two desks: the owner's, and the volunteer's phone signed in with the passcode.
  const volunteer = await (await browser.newContext()).newPage();
  await volunteer.goto("/");
  await post(volunteer, "/api/desk/sign-in", { passcode });
  await post(volunteer, `/api/events/${event.id}/desk-entries`, cashEntry(500));
  for (const amount of [1_000, 2_500])
    await post(owner, `/api/events/${event.id}/desk-entries`, cashEntry(amount));

  // The owner revokes the passcode: the volunteer's phone can add nothing more.
  await owner.getByRole("button", { name: "Revoke Mary Wambui's passcode" }).click();
  await expect(owner.getByText(/^Mary Wambui · revoked$/)).toBeVisible();
  expect((await send(volunteer, `/api/events/${event.id}/desk-entries`, cashEntry(300))).status()).toBe(401);
  await post(owner, `/api/events/${event.id}/close`);

  // The treasurer reaches the count from the events page.
  const treasurer = await signedInPage(browser, DEMO_TREASURER, `/campaign/${id}/events`);
  await treasurer.getByRole("link", { name: `Cash count of ${title}` }).click();
  await expect(treasurer.getByRole("heading", { name: `Cash count: ${title}` })).toBeVisible();
  const count = await (await treasurer.request.get(`/api/events/${event.id}/cash-reconciliation`)).json();
  const ownerName: string = count.ushers.find(
    (usher: { recorded_total: number }) => usher.recorded_total === 3_500,
  ).usher_name;
  const ownerRow = treasurer.getByRole("region", { name: ownerName, exact: true });
  const maryRow = treasurer.getByRole("region", { name: "Mary Wambui" });
  await expect(ownerRow.getByText("Recorded at the desk: Ksh 3,500 · 2 cash entries")).toBeVisible();

  // Short by Ksh 200: the difference in words, and a note to explain it.
  await ownerRow.getByLabel(`Counted for ${ownerName} (Ksh)`).fill("3300");
  await expect(ownerRow.getByText("Short by Ksh 200")).toBeVisible();
  await ownerRow.getByLabel(`Note for ${ownerName}`).fill("One envelope was empty");
  await ownerRow.getByLabel(`Note for ${ownerName}`).press("Enter");
  await expect(ownerRow.getByText("not saved yet")).toHaveCount(0);
  await maryRow.getByLabel("Counted for Mary Wambui (Ksh)").fill("500");
  await maryRow.getByRole("button", { name: "Save the count for Mary Wambui" }).click();
  await expect(maryRow.getByText("Balanced")).toBeVisible();
  const totals = treasurer.getByTestId("cash-totals");
  await expect(totals).toContainText("Ksh 4,000");
  await expect(totals).toContainText("Ksh 3,800");
  await expect(totals).toContainText("Short by Ksh 200");
  await expectAccessible(treasurer);

  // The sign-off, confirmed, freezes the counts.
  await treasurer.getByRole("button", { name: "Sign off the count…" }).click();
  await expect(treasurer.getByText("You sign off Ksh 3,800 counted against Ksh 4,000")).toBeVisible();
  await treasurer.getByRole("button", { name: "Sign off", exact: true }).click();
  await expect(treasurer.getByTestId("cash-state")).toContainText("Signed off by");
  await expect(treasurer.getByLabel(`Counted for ${ownerName} (Ksh)`)).toHaveCount(0);

  // The owner's phone had kept an envelope offline: it arrives after the sign-off, shown apart.
  await post(owner, `/api/events/${event.id}/desk-entries`, cashEntry(700));
  await treasurer.reload();
  await expect(treasurer.getByTestId("cash-late")).toContainText(
    "1 cash entry (Ksh 700) arrived after the sign-off",
  );
  await expect(totals).toContainText("Ksh 4,000");
  await expect(ownerRow.getByText("After the sign-off: 1 more entry, Ksh 700")).toBeVisible();
  await expectAccessible(treasurer);

  // Withdrawing the sign-off, with a reason, opens the counts again with the late envelope.
  await treasurer.getByRole("button", { name: "Withdraw the sign-off…" }).click();
  await treasurer.getByLabel("Why withdraw the sign-off?").fill("A late envelope arrived");
  await treasurer.getByRole("button", { name: "Withdraw the sign-off", exact: true }).click();
  await expect(
    treasurer.getByText(/The last sign-off was withdrawn by .*: A late envelope arrived/),
  ).toBeVisible();
  await expect(ownerRow.getByText("Recorded at the desk: Ksh 4,200 · 3 cash entries")).toBeVisible();
  await expect(ownerRow.getByText("Short by Ksh 900")).toBeVisible();

  await volunteer.context().close();
  await treasurer.context().close();
});
