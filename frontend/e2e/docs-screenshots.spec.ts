import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, signIn, test } from "./support";

// The guide's screenshots (docs/guide/img/<language>/*.png), taken from the real app on the demo data in
// English and in Kiswahili: `make docs-screenshots` runs this spec with DOCS_SCREENSHOTS=1 and the PNGs are
// committed. In `make test` it walks the same pages without rewriting the images, so a checkout stays clean. Each signed-in page is also checked to link its Help to its guide
// page in the page's language (src/lib/helpPages.ts).

const GUIDE_IMAGES = join(import.meta.dirname, "..", "..", "docs", "guide", "img");
const BOREHOLE = "Clean Water Borehole for Kathonzweni Village";
const LANGUAGES = { en: "English", sw: "Kiswahili" } as const;
/** The few labels this spec finds the pages by, as each language shows them. */
const LABELS = {
  en: {
    help: "Help",
    pledgeManagement: "Pledge Management",
    viewAll: "View all pledges",
    behind: "Only pledgers behind their instalment plan",
    behindBy: "Behind by 1 instalment",
  },
  sw: {
    help: "Msaada",
    pledgeManagement: "Usimamizi wa Ahadi",
    viewAll: "Tazama ahadi zote",
    behind: "Walioahidi walio nyuma ya mpango wao wa awamu pekee",
    behindBy: "Nyuma kwa awamu 1",
  },
} as const;

// Phones are what the guide's readers hold; one CSS pixel per image pixel keeps the PNGs small.
test.use({ viewport: { width: 390, height: 760 }, deviceScaleFactor: 1 });

/** An API call in a signed-in page's session, with its CSRF token, as the app makes it. */
async function post(page: Page, path: string, data: object = {}) {
  const session = await (await page.request.get("/api/auth/session")).json();
  const response = await page.request.post(path, { headers: { "X-CSRFToken": session.csrf_token }, data });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

async function shoot(page: Page, language: keyof typeof LANGUAGES, name: string) {
  if (!process.env.DOCS_SCREENSHOTS) return;
  const folder = join(GUIDE_IMAGES, language);
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), animations: "disabled", caret: "hide" });
}

/** The header's Help link leads to `page` of the guide, in Kiswahili under /docs/sw/. */
async function expectHelp(page: Page, language: keyof typeof LANGUAGES, guidePage: string) {
  const help = page.getByRole("banner").getByRole("link", { name: LABELS[language].help, exact: true });
  await expect(help).toHaveAttribute("href", `/docs/${language === "en" ? "" : "sw/"}guide/${guidePage}/`);
}

// The language chosen here is remembered on the demo organizer's profile: put it back to English after each
// run, as the specs that follow in the same server (a shard) sign in as the organizer and read English labels.
test.afterEach(async ({ page }) => {
  // The test signed the organizer in on this page's context; its request shares that session.
  const session = await (await page.request.get("/api/auth/session")).json();
  const reset = await page.request.put("/api/auth/language", {
    headers: { "X-CSRFToken": session.csrf_token },
    data: { language: "en" },
  });
  expect(reset.ok(), await reset.text()).toBe(true);
});

for (const [language, languageName] of Object.entries(LANGUAGES) as [keyof typeof LANGUAGES, string][]) {
  test(`the guide's screenshots in ${languageName}`, async ({ page }) => {
    test.setTimeout(120_000);
    const ministry = (await (await page.request.get("/api/ministry-campaign")).json()).campaign_id;
    const borehole = (
      await (await page.request.get(`/api/campaigns?q=${encodeURIComponent("Kathonzweni")}`)).json()
    ).find((campaign: { title: string }) => campaign.title === BOREHOLE).id;

    await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
    // The language switch in the footer: remembered on the organizer's profile, as a person would choose it.
    const switchTo = page.getByRole("contentinfo").getByRole("button", { name: languageName });
    if ((await switchTo.getAttribute("aria-pressed")) !== "true") await switchTo.click();
    await expect(page.locator("html")).toHaveAttribute("lang", language);

    // The owner's first evening: the dashboard, then where the money goes.
    await page.reload();
    await expectHelp(page, language, "owner-first-evening");
    await shoot(page, language, "dashboard");
    const organizations = await (await page.request.get("/api/orgs")).json();
    const ministryOrganization = (
      await Promise.all(
        organizations.map(async (organization: { id: number }) => {
          const accounts = await (
            await page.request.get(`/api/orgs/${organization.id}/collection-accounts`)
          ).json();
          return accounts.some((account: { paybill_number: string }) => account.paybill_number === "600100")
            ? organization.id
            : null;
        }),
      )
    ).find((id) => id !== null);
    await page.goto(`/organizations/${ministryOrganization}/collection-accounts`);
    await expectHelp(page, language, "owner-first-evening");
    await shoot(page, language, "collection-accounts");

    // The treasurer's week: Pledge Management, and a statement to import.
    await page.goto(`/campaign/${ministry}`);
    await expectHelp(page, language, "treasurer-week");
    await page
      .getByRole("heading", { name: LABELS[language].pledgeManagement })
      .evaluate((heading) => heading.scrollIntoView({ block: "center" }));
    await shoot(page, language, "pledge-management");
    await page.goto(`/orgs/${ministryOrganization}/statements`);
    await expectHelp(page, language, "treasurer-week");
    await shoot(page, language, "statement-import");

    // Instalments: who is behind their plan.
    await page.goto(`/campaign/${borehole}`);
    await page.getByRole("button", { name: LABELS[language].viewAll }).click();
    await page.getByLabel(LABELS[language].behind).check();
    // The filtered list of all pledges, below the recent ones.
    const behind = page.getByText(LABELS[language].behindBy).filter({ visible: true }).last();
    await expect(behind).toBeVisible();
    await behind.evaluate((badge) => badge.scrollIntoView({ block: "center" }));
    await shoot(page, language, "instalments-behind");

    // The harambee night: tonight's event opened, the desk, the big screen.
    const events = await (await page.request.get(`/api/campaigns/${ministry}/events`)).json();
    for (const open of events.filter((event: { state: string }) => event.state === "open")) {
      await post(page, `/api/events/${open.id}/close`);
    }
    const now = Date.now();
    const event = await post(page, `/api/campaigns/${ministry}/events`, {
      title: language === "en" ? "Harambee Sunday" : "Harambee ya Jumapili",
      starts_at: new Date(now).toISOString(),
      ends_at: new Date(now + 3 * 3_600_000).toISOString(),
    });
    await post(page, `/api/events/${event.id}/open`);
    await page.goto(`/campaign/${ministry}/desk`);
    await expectHelp(page, language, "harambee-night");
    await shoot(page, language, "desk");
    await page.goto(`/campaign/${ministry}/live`);
    await shoot(page, language, "big-screen");
    await post(page, `/api/events/${event.id}/close`);

    // Pledging from a feature phone: the poster with the code to dial.
    await page.goto(`/campaign/${ministry}/poster`);
    await shoot(page, language, "poster");
  });
}
