import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, test as base, expect, type Locator, type Page } from "@playwright/test";

// How long a navigation waits for the app, then for the network to settle, at most (a test may hold a
// request forever).
const APP_READY_WAIT_MS = 10_000;

/** Waits until the app has taken the page over (src/AppRoot.tsx marks <html data-app="ready"> once it
 * has rendered or hydrated it), then until the network is idle. Public pages come rendered by the
 * server and show everything before the app runs (its scripts are asked for once the page has loaded
 * and painted, frontend/public/after-paint.js), so a test acting at once would type into or click the
 * server's HTML before the app has taken it over: a plain form then posts to the server. */
async function appReady(page: Page): Promise<void> {
  await page
    .locator('html[data-app="ready"]')
    .waitFor({ state: "attached", timeout: APP_READY_WAIT_MS })
    .catch(() => undefined);
  await page.waitForLoadState("networkidle", { timeout: APP_READY_WAIT_MS }).catch(() => undefined);
}

const waitsForTheApp = new WeakSet<Page>();

/** Every navigation of ``page`` then waits for the app (appReady), but one that names its own
 * `waitUntil`: that test decides what it waits for (e.g. it holds the app's scripts back). */
function waitForTheApp(page: Page) {
  if (waitsForTheApp.has(page)) return;
  waitsForTheApp.add(page);
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (!options?.waitUntil) await appReady(page);
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    if (!options?.waitUntil) await appReady(page);
    return response;
  };
}

/** Playwright's test, with every page of a context that runs scripts waiting for the app
 * (waitForTheApp): the test's own context, and those a test makes with `browser.newContext`. */
export const test = base.extend<object, { browser: Browser }>({
  context: async ({ context, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) context.on("page", waitForTheApp);
    await use(context);
  },
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        if (options?.javaScriptEnabled !== false) context.on("page", waitForTheApp);
        return context;
      };
      await use(browser);
    },
    { scope: "worker" },
  ],
});

const ROOT = join(import.meta.dirname, "..", "..");
const SERVER_DIR = join(ROOT, ".tmp", `e2e-${process.env.E2E_PORT ?? 8123}`);
export const EMAIL_DIR = join(SERVER_DIR, "emails");
export const DEMO_PASSWORD = "Harambee#2026";
export const DEMO_ORGANIZER = "organizer@harambee.local";
/** The demo ministry's own connected paybill (backend/collection_accounts/demo.py), never Harambee's. */
export const MINISTRY_PAYBILL = "600100";

/** A fresh address per test run, so runs never collide. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.co.ke`;
}

/** Fills in and submits the sign-up form; the caller checks where it lands. */
export async function fillSignUp(
  page: Page,
  {
    firstName,
    lastName,
    email,
    password = "Harambee#1",
    phone = "0712 345 678",
  }: {
    firstName: string;
    lastName: string;
    email: string;
    password?: string;
    phone?: string;
  },
): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("First Name").fill(firstName);
  await page.getByLabel("Last Name").fill(lastName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone Number").fill(phone);
  await page.getByLabel("ID Number").fill("12345678");
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

/** The newest e-mail sent to `to` by Django's file backend, waiting for the task worker. */
export async function latestEmailTo(to: string): Promise<string> {
  let found = "";
  await expect
    .poll(
      () => {
        const files = readdirSync(EMAIL_DIR)
          .map((name) => join(EMAIL_DIR, name))
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
        for (const file of files) {
          const messages = readFileSync(file, "utf-8").split(/^-{79}$/m);
          const match = messages.reverse().find((message) => message.includes(`To: ${to}`));
          if (match) {
            found = match;
            return true;
          }
        }
        return false;
      },
      { timeout: 15_000, message: `an e-mail to ${to}` },
    )
    .toBe(true);
  return found;
}

/** The pledge page's dialog once the app has hydrated it (it then takes the focus): its code comes in a
 * chunk of its own after the page's, so until then its form is the server's, which posts as plain HTML. */
export async function pledgeDialog(page: Page): Promise<Locator> {
  const dialog = page.getByRole("dialog", { name: /^Pledge to / });
  await expect(dialog.getByLabel("Full name")).toBeFocused();
  return dialog;
}

/** axe-core finds no serious or critical accessibility violations on the page. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}

/**
 * Signs in as most specs need it: through the API (POST /api/auth/signin with the session's CSRF token, in
 * the page's own cookies), not the form, which costs a page load and a round of typing per sign-in, ~60
 * times a run. With `next`, then opens it and checks the app stays there. The form itself is tested with
 * signInWithForm (accounts.spec.ts).
 */
export async function signIn(
  page: Page,
  email: string,
  { password = DEMO_PASSWORD, next }: { password?: string; next?: string } = {},
): Promise<void> {
  const session = await (await page.request.get("/api/auth/session")).json();
  const response = await page.request.post("/api/auth/signin", {
    data: { email, password },
    headers: { "X-CSRFToken": session.csrf_token },
  });
  expect(response.ok(), `signing in as ${email}: ${await response.text()}`).toBe(true);
  if (next) {
    await page.goto(next);
    await expect(page).toHaveURL(next);
  }
}

/**
 * Signs in through the sign-in page, for the specs of signing in itself. With `next`, waits until the app
 * has gone there; without, leaves the outcome to the caller (e.g. a refused password).
 */
export async function signInWithForm(
  page: Page,
  email: string,
  { password = DEMO_PASSWORD, next }: { password?: string; next?: string } = {},
): Promise<void> {
  await page.goto(next ? `/signin?next=${encodeURIComponent(next)}` : "/signin");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  if (next) await expect(page).toHaveURL(next);
}

/** Another person's browser, signed in (signIn) and on `next`: a context of its own, as axe needs. */
export async function signedInPage(browser: Browser, email: string, next: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email, { next });
  return page;
}

export type SavedFeedback = { message: string; contact: string; page: string; email: string | null };

/** The feedback rows the e2e server saved with this message, read straight from its SQLite file. */
export function savedFeedback(message: string): SavedFeedback[] {
  const script = `
import json, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT f.message, f.contact, f.page, u.email FROM feedback_feedback f"
    " LEFT JOIN accounts_user u ON u.id = f.user_id WHERE f.message = ?", (sys.argv[2],))
print(json.dumps([dict(zip(["message", "contact", "page", "email"], row)) for row in rows]))
`;
  const database = join(SERVER_DIR, "db.sqlite3");
  const output = execFileSync(join(ROOT, ".venv", "bin", "python"), ["-c", script, database, message], {
    encoding: "utf-8",
  });
  return JSON.parse(output);
}
