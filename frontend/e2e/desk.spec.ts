import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, savedFeedback, signIn, test } from "./support";

// The acceptance of issue 32: two desks and a big screen open; entries from both reach the screen;
// one desk goes offline, three entries are typed, the page is reloaded, the network returns: the
// three arrive once each.

async function ministryCampaignId(request: APIRequestContext): Promise<number> {
  const response = await request.get("/api/ministry-campaign");
  expect(response.ok()).toBe(true);
  return (await response.json()).campaign_id;
}

/** An API call in a signed-in page's session, with its CSRF token, as the app makes it. */
async function post(page: Page, path: string, data: object = {}) {
  const session = await (await page.request.get("/api/auth/session")).json();
  const response = await page.request.post(path, { headers: { "X-CSRFToken": session.csrf_token }, data });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

/** The campaign's event for tonight, opened (any other open one closed first: one at a time). */
async function openTonightsEvent(owner: Page, campaignId: number): Promise<number> {
  const events = await (await owner.request.get(`/api/campaigns/${campaignId}/events`)).json();
  for (const open of events.filter((event: { state: string }) => event.state === "open")) {
    await post(owner, `/api/events/${open.id}/close`);
  }
  const now = Date.now();
  const event = await post(owner, `/api/campaigns/${campaignId}/events`, {
    title: `Desk night ${now}`,
    starts_at: new Date(now).toISOString(),
    ends_at: new Date(now + 3 * 3_600_000).toISOString(),
  });
  await post(owner, `/api/events/${event.id}/open`);
  return event.id;
}

async function addEntry(desk: Page, kind: "Pledge card" | "Cash", amount: number, name: string, phone = "") {
  await desk.getByText(kind, { exact: true }).click();
  await desk.getByLabel("Amount (Ksh)").fill(String(amount));
  if (phone) await desk.getByLabel(/^Phone/).fill(phone);
  await desk.getByLabel("Name (optional)").fill(name);
  // Keyboard-first: Enter adds the entry and the cursor goes back to the amount.
  await desk.getByLabel("Name (optional)").press("Enter");
  await expect(desk.getByLabel("Amount (Ksh)")).toBeFocused();
}

const waiting = (desk: Page) => desk.getByTestId("desk-waiting");

test("two desks and a big screen: entries from both arrive, and a desk offline loses and doubles nothing", async ({
  page: owner,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const id = await ministryCampaignId(request);
  const stamp = Date.now();

  // The owner's phone is the first desk; a volunteer without an account gets a passcode for the second.
  await signIn(owner, DEMO_ORGANIZER, { next: "/dashboard" });
  const eventId = await openTonightsEvent(owner, id);
  const { passcode } = await post(owner, `/api/events/${eventId}/desk-passcodes`, {
    volunteer: "Mary Wambui",
  });
  await owner.goto(`/campaign/${id}/desk`);
  await expect(owner.getByRole("heading", { name: /^Desk: / })).toBeVisible();

  const hall = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const screen = await hall.newPage();
  await screen.goto(`/campaign/${id}/live`);
  await expect(screen.getByRole("heading", { name: "Pledges and gifts tonight" })).toBeVisible();

  const volunteerPhone = await browser.newContext();
  const volunteer = await volunteerPhone.newPage();
  await volunteer.goto(`/campaign/${id}/desk`);
  await volunteer.getByLabel("Desk passcode").fill(passcode);
  await volunteer.getByRole("button", { name: "Open the desk" }).click();
  await expect(volunteer.getByText(/· Mary Wambui$/)).toBeVisible();
  await expectAccessible(volunteer);

  // Entries from both desks reach the big screen.
  await addEntry(owner, "Pledge card", 20_000, `Wanjiru ${stamp}`, "0712345678");
  await addEntry(volunteer, "Cash", 1_500, `Otieno ${stamp}`);
  await expect(screen.getByText(`Wanjiru ${stamp} pledged`)).toBeVisible();
  await expect(screen.getByText(`Otieno ${stamp} gave`)).toBeVisible();
  await expect(waiting(owner)).toContainText("0");
  await expect(waiting(volunteer)).toContainText("0");

  // The desk and its files are kept for a reload without the network.
  await volunteer.waitForFunction(
    async (path) => Boolean(navigator.serviceWorker.controller) && Boolean(await caches.match(path)),
    `/campaign/${id}/desk`,
  );

  // The hall's Wi-Fi drops at the volunteer's desk: three envelopes are typed, the page reloaded.
  await volunteerPhone.setOffline(true);
  const offline = [1, 2, 3].map((n) => `Envelope ${n} ${stamp}`);
  for (const [n, name] of offline.entries()) await addEntry(volunteer, "Cash", 100 * (n + 1), name);
  await expect(waiting(volunteer)).toContainText("3");
  await volunteer.reload();
  await expect(waiting(volunteer)).toContainText("3");
  await expect(volunteer.getByText("No connection: entries are kept on this phone")).toBeVisible();

  // The network returns: the three arrive, once each.
  await volunteerPhone.setOffline(false);
  await expect(waiting(volunteer)).toContainText("0", { timeout: 15_000 });
  for (const name of offline) await expect(screen.getByText(`${name} gave`)).toHaveCount(1);
  await expect(volunteer.getByTestId("desk-sent")).toContainText("4");
  const desk = await (await volunteer.request.get(`/api/campaigns/${id}/desk`)).json();
  expect(desk.entries_count).toBe(4);
  expect(desk.entries_total).toBe(1_500 + 100 + 200 + 300);

  // A volunteer without an account may send feedback from the desk, as any visitor may.
  const feedback = `The desk is quick ${stamp}`;
  await volunteer.getByRole("button", { name: "Send feedback" }).click();
  const dialog = volunteer.getByRole("dialog", { name: "Send us your feedback" });
  await dialog.getByLabel("Message").fill(feedback);
  await dialog.getByRole("button", { name: "Send Feedback" }).click();
  await expect(volunteer.getByText("Thank you for your feedback!", { exact: true })).toBeVisible();
  expect(savedFeedback(feedback)).toEqual([
    { message: feedback, contact: "", page: `/campaign/${id}/desk`, email: null },
  ]);

  // A pledge card may carry an instalment plan, saved with the pledge.
  const planned = `Kamau ${stamp}`;
  const phone = `07${String(stamp).slice(-8)}`;
  await owner.getByText("Pledge card", { exact: true }).click();
  await owner.getByLabel("Amount (Ksh)").fill("12000");
  await owner.getByLabel(/^Phone/).fill(phone);
  await owner.getByLabel("Name (optional)").fill(planned);
  await owner.getByLabel("Pays in instalments").check();
  await owner.getByLabel("Instalment (Ksh)").fill("4000");
  await owner.getByLabel("How often").selectOption("weekly");
  await expectAccessible(owner);
  await owner.getByLabel("Instalment (Ksh)").press("Enter");
  await expect(screen.getByText(`${planned} pledged`)).toBeVisible();
  await expect(waiting(owner)).toContainText("0");
  const [latest] = (await (await owner.request.get(`/api/campaigns/${id}/desk`)).json()).recent;
  const pledge = await (await owner.request.get(`/api/pledges/${latest.pledge_code}`)).json();
  expect([pledge.amount, pledge.plan.instalment, pledge.plan.frequency]).toEqual([12_000, 4_000, "weekly"]);

  // A plan the server refuses stays on the desk with its reason until the usher removes it.
  await owner.getByLabel("Amount (Ksh)").fill("1000");
  await owner.getByLabel(/^Phone/).fill(phone);
  await owner.getByLabel("Pays in instalments").check();
  await owner.getByLabel("Instalment (Ksh)").fill("5000");
  await owner.getByLabel("Instalment (Ksh)").press("Enter");
  const refused = owner.getByRole("region", { name: "Not accepted: check these with a treasurer" });
  await expect(refused).toContainText("Please enter a whole amount from Ksh 1 to the pledge's Ksh 1,000.");
  await refused.getByRole("button", { name: "Remove the entry of Ksh 1,000" }).click();
  await expect(refused).toBeHidden();

  await hall.close();
  await volunteerPhone.close();
  // The night is over: the campaign has one open event at a time, and the other specs open their own.
  await post(owner, `/api/events/${eventId}/close`);
});

test("entries typed under a revoked passcode are never sent under the next volunteer on the same phone", async ({
  page: owner,
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const id = await ministryCampaignId(request);
  const stamp = Date.now();
  await signIn(owner, DEMO_ORGANIZER, { next: "/dashboard" });
  const eventId = await openTonightsEvent(owner, id);
  const mary = await post(owner, `/api/events/${eventId}/desk-passcodes`, { volunteer: "Mary Wambui" });
  const john = await post(owner, `/api/events/${eventId}/desk-passcodes`, { volunteer: "John Kamau" });

  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto(`/campaign/${id}/desk`);
  await phone.getByLabel("Desk passcode").fill(mary.passcode);
  await phone.getByRole("button", { name: "Open the desk" }).click();
  await expect(phone.getByText(/· Mary Wambui$/)).toBeVisible();

  // The owner revokes Mary's passcode; her phone has not heard yet and keeps what she types.
  const listed = await (await owner.request.get(`/api/events/${eventId}/desk-passcodes`)).json();
  const marys = listed.find((passcode: { volunteer: string }) => passcode.volunteer === "Mary Wambui");
  const session = await (await owner.request.get("/api/auth/session")).json();
  const revoked = await owner.request.post(`/api/events/${eventId}/desk-passcodes/${marys.id}/revocation`, {
    headers: { "X-CSRFToken": session.csrf_token },
  });
  expect(revoked.status()).toBe(204);
  await addEntry(phone, "Cash", 700, `Envelope ${stamp}`);
  await expect(waiting(phone)).toContainText("1");

  await phone.reload();
  await expect(phone.getByRole("alert")).toContainText("Mary Wambui is no longer signed in at this desk");
  await expect(phone.getByRole("alert")).toContainText("1 entry typed here is kept on this phone");

  // John signs in on the same phone: Mary's envelope is held aside, never sent under him.
  await phone.getByLabel("Desk passcode").fill(john.passcode);
  await phone.getByRole("button", { name: "Open the desk" }).click();
  await expect(phone.getByText(/· John Kamau$/)).toBeVisible();
  const held = phone.getByTestId("desk-held-aside");
  await expect(held).toContainText(
    "Typed by Mary Wambui, who is no longer signed in here: show them to a treasurer",
  );
  await expect(held).toContainText(`Ksh 700 · Envelope ${stamp}`);
  await expect(waiting(phone)).toContainText("0");
  await expectAccessible(phone);
  const desk = await (await phone.request.get(`/api/campaigns/${id}/desk`)).json();
  expect(desk.entries_count).toBe(0);

  // A treasurer has read it: it is discarded on purpose.
  await held.getByRole("button", { name: "Discard the entries of Mary Wambui" }).click();
  await held.getByRole("button", { name: "Yes, discard them" }).click();
  await expect(held).toHaveCount(0);

  await phoneContext.close();
  await post(owner, `/api/events/${eventId}/close`);
});
