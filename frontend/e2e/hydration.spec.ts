import { expect, type Page } from "@playwright/test";
import { test, uniqueEmail } from "./support";

// The campaign page comes rendered by the server (backend/config/spa.py, frontend/src/entry-server.tsx)
// and the app hydrates it (src/main.tsx): the server's elements must stay, with no mismatch reported.
// Were the app to render again instead (a mismatch, or createRoot), its largest element would be
// painted twice: these tests fail then.

const DIALYSIS = "Dialysis Support for Brian Kiprotich";

type Kept = { title: Element | null; cover: Element | null };
declare global {
  interface Window {
    serverRendered: Kept;
  }
}

async function campaignId(page: Page): Promise<number> {
  const response = await page.request.get(`/api/campaigns?q=${encodeURIComponent(DIALYSIS)}`);
  const [campaign] = await response.json();
  return campaign.id;
}

/** Runs in the page before its scripts: keeps the server's heading and cover once the HTML is parsed
 * (readyState 'interactive' comes before any module script runs). */
function keepServerElements() {
  document.addEventListener("readystatechange", () => {
    if (document.readyState === "interactive") {
      window.serverRendered = {
        title: document.querySelector("#root h1"),
        cover: document.querySelector("#root img"),
      };
    }
  });
}

/** Waits until React has taken over the element (hydration marks the nodes it adopts). */
const hydrated = (page: Page, which: keyof Kept) =>
  page.waitForFunction(
    (kept) => Object.keys(window.serverRendered[kept] ?? {}).some((key) => key.startsWith("__reactFiber$")),
    which,
  );

for (const language of ["en", "sw"] as const) {
  test(`the campaign page (${language}) is the server's HTML, hydrated without a mismatch`, async ({
    page,
    context,
    baseURL,
  }) => {
    if (language === "sw") {
      // How LocaleMiddleware knows a returning visitor's language (the switch sets it).
      await context.addCookies([{ name: "django_language", value: "sw", url: baseURL }]);
    }
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript(keepServerElements);
    const id = await campaignId(page);

    await page.goto(`/campaign/${id}`);

    await expect(page.locator("html")).toHaveAttribute("lang", language);
    expect(await page.evaluate(() => window.serverRendered.title?.textContent)).toBe(DIALYSIS);
    expect(await page.evaluate(() => window.serverRendered.cover?.getAttribute("fetchpriority"))).toBe(
      "high",
    );
    await hydrated(page, "title");
    await hydrated(page, "cover");
    // The viewer's own fetch of the campaign has come and re-rendered the page: still the same nodes.
    await expect(page.getByRole("button", { name: language === "en" ? /Like/ : /Penda/ })).toBeEnabled();
    expect(
      await page.evaluate(
        () =>
          window.serverRendered.title === document.querySelector("#root h1") &&
          window.serverRendered.cover === document.querySelector("#root img") &&
          Boolean(window.serverRendered.title?.isConnected && window.serverRendered.cover?.isConnected),
      ),
    ).toBe(true);
    expect(errors).toEqual([]);
  });
}

/** When the page asked for its first app script (frontend/public/after-paint.js), and when it had
 * loaded and painted first, in ms since the navigation began. */
async function scriptTiming(page: Page) {
  await page.waitForFunction(() =>
    performance.getEntriesByType("resource").some((entry) => /\/assets\/index-[^/]+\.js$/.test(entry.name)),
  );
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    const scripts = performance
      .getEntriesByType("resource")
      .filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name))
      .map((entry) => entry.startTime);
    return {
      load: navigation?.loadEventEnd || Infinity,
      firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Infinity,
      firstScript: Math.min(...scripts),
    };
  });
}

test("the app's scripts are asked for once the page has loaded and painted", async ({ browser }) => {
  // On a slow phone they would otherwise share the connection with the cover and the CSS.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/campaign/${await campaignId(page)}`);
  const { load, firstPaint, firstScript } = await scriptTiming(page);
  expect(firstScript).toBeGreaterThanOrEqual(load);
  expect(firstScript).toBeGreaterThanOrEqual(firstPaint);
  await context.close();
});

test("a visitor who taps before the page has loaded gets the app at once, and nobody waits for a stuck picture", async ({
  browser,
}) => {
  const context = await browser.newContext();
  // The cover never comes: the load event neither.
  await context.route("**/campaigns/covers/**", () => undefined);
  const page = await context.newPage();
  const url = `/campaign/${await campaignId(page)}`;

  await page.goto(url, { waitUntil: "domcontentloaded" });
  await page.keyboard.press("Tab");
  const tapped = await scriptTiming(page);
  expect(tapped.load).toBe(Infinity);
  await expect(page.getByRole("button", { name: /Like/ })).toBeEnabled(); // hydrated

  const idle = await context.newPage();
  await idle.goto(url, { waitUntil: "domcontentloaded" });
  const waited = await scriptTiming(idle); // after-paint.js's LONGEST_WAIT_MS
  expect(waited.load).toBe(Infinity);
  expect(waited.firstScript).toBeGreaterThan(3000);
  await context.close();
});

// The other public pages (backend/config/spa.py PUBLIC_PAGES): each shows its main content from the
// server's HTML alone (JavaScript disabled), and with JavaScript the app hydrates that HTML: the
// server's heading is the one React adopts and keeps, with no error.

type PublicPage = { path: (page: Page) => Promise<string>; heading: { en: string; sw: string } };

const fixed = (path: string) => async () => path;

/** A new pledge's receipt page, pledged as a visitor without JavaScript would (the plain form). */
async function pledgedReceipt(page: Page): Promise<string> {
  const { campaign_id } = await (await page.request.get("/api/ministry-campaign")).json();
  await page.goto(`/campaign/${campaign_id}/pledge`);
  const form = page.locator(`form[method="post"][action="/campaign/${campaign_id}/pledge"]`);
  await form.locator('input[name="name"]').fill("Achieng Otieno");
  await form.locator('input[name="email"]').fill(uniqueEmail("receipt"));
  await form.locator('input[name="phone"]').fill("0712 345 678");
  await form.locator('input[name="amount"]').fill("3,000");
  await form.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/pledges\/[A-Z0-9]{7}$/);
  return new URL(page.url()).pathname;
}

const PUBLIC_PAGES: PublicPage[] = [
  { path: fixed("/"), heading: { en: "Welcome to Harambee", sw: "Karibu Harambee" } },
  { path: fixed("/how-it-works"), heading: { en: "How it works", sw: "Jinsi inavyofanya kazi" } },
  { path: fixed("/signin"), heading: { en: "Sign In", sw: "Ingia" } },
  { path: fixed("/signup"), heading: { en: "Create Account", sw: "Fungua Akaunti" } },
  {
    path: async (page) => `/campaign/${await campaignId(page)}/donate`,
    heading: { en: "Make a donation", sw: "Toa mchango" },
  },
  { path: fixed("/explore"), heading: { en: "Explore Campaigns", sw: "Gundua Kampeni" } },
  {
    path: fixed("/icc-imara-donate"),
    heading: { en: "Building our church home, together", sw: "Tujenge nyumba ya kanisa letu, pamoja" },
  },
  { path: pledgedReceipt, heading: { en: "Your pledge", sw: "Ahadi yako" } },
];

for (const { path, heading } of PUBLIC_PAGES) {
  test(`${heading.en}: shown without JavaScript, and hydrated with it (en, sw)`, async ({
    browser,
    baseURL,
  }) => {
    for (const language of ["en", "sw"] as const) {
      const cookies = [{ name: "django_language", value: language, url: baseURL }];
      const withoutScripts = await browser.newContext({ javaScriptEnabled: false });
      await withoutScripts.addCookies(cookies);
      const bare = await withoutScripts.newPage();
      const url = await path(bare);
      await bare.goto(url);
      await expect(bare.getByRole("heading", { level: 1, name: heading[language] })).toBeVisible();
      // Explore: its first page of campaigns too.
      if (url === "/explore") await expect(bare.getByText(DIALYSIS).first()).toBeVisible();
      // A form sent before the app runs posts (refused), never putting what was typed into a URL.
      for (const form of await bare.locator("form").all())
        await expect(form).toHaveAttribute("method", "post");
      await withoutScripts.close();

      const context = await browser.newContext();
      await context.addCookies(cookies);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await page.addInitScript(keepServerElements);
      await page.goto(url);
      expect(await page.evaluate(() => window.serverRendered.title?.textContent)).toBe(heading[language]);
      await hydrated(page, "title");
      await page.waitForLoadState("networkidle");
      expect(
        await page.evaluate(
          () =>
            window.serverRendered.title === document.querySelector("#root h1") &&
            Boolean(window.serverRendered.title?.isConnected),
        ),
      ).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
}
