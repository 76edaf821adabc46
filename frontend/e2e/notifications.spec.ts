import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import {
  DEMO_ORGANIZER,
  expectAccessible,
  latestEmailTo,
  MINISTRY_PAYBILL,
  pledgeDialog,
  signIn,
  test,
  uniqueEmail,
} from "./support";

const ROOT = join(import.meta.dirname, "..", "..");
const DATABASE = join(ROOT, ".tmp", `e2e-${process.env.E2E_PORT ?? 8123}`, "db.sqlite3");
// What the pledger types, and the same number in E.164 as the SMS simulator stores it.
const PHONE = "0712345678";
const E164 = "+254712345678";

/** `manage.py` against the e2e server's database; its enqueued tasks run in that server's worker. */
function manage(...args: string[]): string {
  return execFileSync(join(ROOT, ".venv", "bin", "python"), ["manage.py", ...args], {
    cwd: join(ROOT, "backend"),
    // As the server runs (scripts/e2e-server.sh): no quiet hours, since the tests run at any hour.
    env: { ...process.env, DATABASE_URL: `sqlite:///${DATABASE}`, REMINDER_QUIET_HOURS: "" },
    encoding: "utf-8",
  });
}

/** Rows of the e2e server's SQLite file, read straight from it: these are polled, and Python with
 * sqlite3 alone answers in a few milliseconds where `manage.py shell` first spends seconds of CPU
 * starting Django, so a poll would see the outbox only every few seconds on a busy machine. */
function query(sql: string, ...parameters: string[]): unknown[][] {
  const script = `
import json, sqlite3, sys
print(json.dumps(sqlite3.connect(sys.argv[1]).execute(sys.argv[2], sys.argv[3:]).fetchall()))
`;
  const output = execFileSync(
    join(ROOT, ".venv", "bin", "python"),
    ["-c", script, DATABASE, sql, ...parameters],
    {
      encoding: "utf-8",
    },
  );
  return JSON.parse(output);
}

/** The texts of the SMS outbox's messages to `to` that mention `code`, oldest first. */
function smsTo(to: string, code: string): string[] {
  const rows = query(
    `SELECT message FROM simulators_simulatedsms WHERE "to" = ? AND instr(message, ?) > 0 ORDER BY created_at, id`,
    to,
    code,
  );
  return rows.map(([message]) => String(message));
}

/** The reminder offsets the scheduler has taken on for the pledge (it records them before sending). */
function reminderOffsets(code: string): string[] {
  const rows = query(
    "SELECT r.offset FROM notifications_reminder r JOIN pledges_pledge p ON p.id = r.pledge_id WHERE p.code = ?",
    code,
  );
  return rows.map(([offset]) => String(offset));
}

const reminders = (to: string, code: string) =>
  smsTo(to, code).filter((text) => text.startsWith("Reminder:"));

/** The moment `ms` milliseconds from now, on Nairobi's clock (UTC+3 all year), for `--now`. */
function nairobiTimeIn(ms: number): string {
  const local = new Date(Date.now() + ms + 3 * 3600_000);
  return `${local.toISOString().slice(0, 19)}+03:00`;
}

test("a pledge's e-mail and SMS carry its code; a reminder follows a week later, and none after paying", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const campaignId = (await (await page.request.get("/api/ministry-campaign")).json()).campaign_id;
  const campaign = await (await page.request.get(`/api/campaigns/${campaignId}`)).json();

  const email = uniqueEmail("reminded");
  await page.goto(`/campaign/${campaignId}/pledge`);
  const dialog = await pledgeDialog(page);
  await dialog.getByLabel("Full name").fill(`Achieng Reminder ${Date.now()}`);
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Phone number").fill(PHONE);
  await dialog.getByLabel("Amount (Ksh)").fill("2,000");
  await dialog.getByRole("button", { name: "Submit pledge" }).click();
  const code = (await dialog.getByTestId("pledge-code").textContent())?.trim() ?? "";
  expect(code).toMatch(/^[A-Z0-9]{6,8}$/);
  // The scheduler's first run once the 'pledge+7' reminder is due.
  const firstReminder = nairobiTimeIn(7 * 24 * 3600_000 + 5 * 60_000);
  // The 'pledge+7' reminder goes out only while the campaign runs.
  expect(campaign.end_date >= firstReminder.slice(0, 10)).toBe(true);

  expect(await latestEmailTo(email)).toContain(code);
  await expect.poll(() => smsTo(E164, code).length, { timeout: 15_000 }).toBe(1);
  expect(reminders(E164, code)).toEqual([]);

  // A week later: the scheduler takes on the first reminder, and the worker sends it.
  // The scheduler takes on every pledge of the database due by then, those that the specs before this one
  // in its shard made too, and the worker sends them in turn: how many is up to the shard, hence the wait.
  manage("send_due_reminders", "--now", firstReminder);
  expect(reminderOffsets(code)).toEqual(["pledge+7"]);
  await expect.poll(() => reminders(E164, code).length, { timeout: 45_000 }).toBe(1);
  expect(reminders(E164, code)[0]).toContain("Ksh 2,000");

  // Paid in full by paybill: the pledge is confirmed...
  const paybill = await page.request.post("/simulators/daraja/c2b/simulate", {
    data: { ShortCode: MINISTRY_PAYBILL, BillRefNumber: code, Amount: 2000, MSISDN: E164.slice(1) },
  });
  expect(paybill.ok(), await paybill.text()).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get(`/api/pledges/${code}`)).json()).status, {
      timeout: 15_000,
    })
    .toBe("confirmed");

  // ...so on the end date the scheduler takes on no reminder for it, and no SMS follows.
  // (Its SMS so far: recorded, the reminder, the receipt and the thank-you.)
  await expect.poll(() => smsTo(E164, code).length, { timeout: 15_000 }).toBe(4);
  manage("send_due_reminders", "--now", `${campaign.end_date}T10:00:00+03:00`);
  expect(reminderOffsets(code)).toEqual(["pledge+7"]);
  expect(smsTo(E164, code)).toHaveLength(4);
  expect(reminders(E164, code)).toHaveLength(1);
});

/** A toast (Radix also copies its text into a screen-reader announcement, hence first()). */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test("the organizer reminds a pledger from Pledge Management, once an hour, and sets the reminders", async ({
  page,
}) => {
  // The ministry campaign is organized by the demo organizer (backend/pledges/demo.py).
  const campaignId = (await (await page.request.get("/api/ministry-campaign")).json()).campaign_id;
  const name = `Njeri Remind ${Date.now()}`;
  const session = await (await page.request.get("/api/auth/session")).json();
  const created = await page.request.post("/api/pledges", {
    data: { campaign_id: campaignId, name, email: uniqueEmail("remind"), phone: "0722000777", amount: 3000 },
    headers: { "X-CSRFToken": session.csrf_token },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const code: string = (await created.json()).code;

  await signIn(page, DEMO_ORGANIZER, { next: `/campaign/${campaignId}` });
  const row = page
    .getByRole("region", { name: "Pledge Management" })
    .locator("li, tr")
    .filter({ hasText: name, visible: true })
    .first();

  await row.getByRole("button", { name: /^Remind/ }).click();
  await expect(toastText(page, `Reminder sent to ${name}.`)).toBeVisible();
  await expect.poll(() => reminders("+254722000777", code).length, { timeout: 15_000 }).toBe(1);
  expect(reminders("+254722000777", code)[0]).toContain("Ksh 3,000");

  // A second press within the hour: the server's message, and no second SMS.
  await row.getByRole("button", { name: /^Remind/ }).click();
  await expect(
    toastText(page, "A reminder was sent for this pledge recently. Please try again later."),
  ).toBeVisible();
  expect(reminders("+254722000777", code)).toHaveLength(1);

  // The reminder settings: the defaults, a check before saving, and a save.
  await page.getByRole("button", { name: "Reminders and new-pledge e-mails" }).click();
  const settings = page.getByRole("form", { name: "Reminder settings" });
  const weekAfter = settings.getByLabel("7 days after pledging");
  await expect(weekAfter).toBeChecked();
  await expect(settings.getByLabel("1 day after pledging")).not.toBeChecked();
  await expectAccessible(page);
  for (const label of ["7 days after pledging", "3 days before the end date", "On the end date"]) {
    await settings.getByLabel(label).uncheck();
  }
  await settings.getByRole("button", { name: "Save reminder settings" }).click();
  await expect(settings.getByText("Choose at least one reminder time, or turn reminders off.")).toBeVisible();
  for (const label of ["7 days after pledging", "3 days before the end date", "On the end date"]) {
    await settings.getByLabel(label).check();
  }
  await settings.getByRole("button", { name: "Save reminder settings" }).click();
  await expect(toastText(page, "Reminder settings saved.")).toBeVisible();
});

test("the opt-out link in a reminder asks first, and only its button stops the reminders", async ({
  page,
}) => {
  const campaignId = (await (await page.request.get("/api/ministry-campaign")).json()).campaign_id;
  const session = await (await page.request.get("/api/auth/session")).json();
  const created = await page.request.post("/api/pledges", {
    data: {
      campaign_id: campaignId,
      name: "Opt Out",
      email: uniqueEmail("optout"),
      phone: "0722000888",
      amount: 500,
    },
    headers: { "X-CSRFToken": session.csrf_token },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const code: string = (await created.json()).code;
  // The link a reminder e-mail carries (built as the server builds it).
  const script = `
from notifications.selectors import opt_out_token
from pledges.models import Pledge
print("/api/notifications/opt-out?token=" + opt_out_token(Pledge.objects.get(code=${JSON.stringify(code)})))
`;
  const link = manage("shell", "-v0", "-c", script).trim();
  const optedOut = () =>
    query(
      "SELECT count(*) FROM notifications_pledgeoptout o JOIN pledges_pledge p ON p.id = o.pledge_id WHERE p.code = ?",
      code,
    )[0]?.[0] === 1;

  // Opening it (as a mail scanner would) changes nothing: the page asks.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Pledge reminders" })).toBeVisible();
  await expect(page.getByText(`Stop the reminders about your pledge ${code} to`)).toBeVisible();
  expect(optedOut()).toBe(false);

  await page.getByRole("button", { name: "Stop reminders" }).click();

  await expect(page.getByText("You will not get any more reminders for this pledge.")).toBeVisible();
  expect(optedOut()).toBe(true);
});
