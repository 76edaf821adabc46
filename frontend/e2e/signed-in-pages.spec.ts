import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, signIn, test } from "./support";

// Issue 45, item 2: on the BUILT app, every signed-in page (frontend/src/OrganizerRoutes.tsx) names
// every option, button and link, in English and in Kiswahili. The role drop-downs were blank there:
// a function took Lingui's `t` as an argument, which the macro leaves untranslated.

type Named = { id: number };

/** The signed-in routes of OrganizerRoutes.tsx, filled in with the demo owner's campaign, event,
 * organization and collection account. */
async function signedInRoutes(page: Page): Promise<string[]> {
  const campaign = (await (await page.request.get("/api/ministry-campaign")).json()).campaign_id;
  const events: Named[] = await (await page.request.get(`/api/campaigns/${campaign}/events`)).json();
  const dashboard = await (await page.request.get("/api/dashboard")).json();
  const organization = dashboard.campaigns.find((row: { id: number }) => row.id === campaign).organization_id;
  const accounts: Named[] = await (
    await page.request.get(`/api/orgs/${organization}/collection-accounts`)
  ).json();
  expect(events.length, "the demo campaign's events").toBeGreaterThan(0);
  const event = events[0]?.id;
  const account = accounts[0]?.id;
  const champion = await ownChampionCode(page, campaign);
  return [
    "/dashboard",
    "/home",
    "/profile",
    "/my-pledges",
    "/my-giving",
    "/organizations",
    `/organizations/${organization}`,
    `/organizations/${organization}/collection-accounts`,
    `/orgs/${organization}/collection-accounts/${account}/mpesa`,
    `/orgs/${organization}/collection-accounts/${account}/cards`,
    `/orgs/${organization}/statements`,
    `/campaign/${campaign}`,
    `/campaign/${campaign}/desk`,
    `/campaign/${campaign}/events`,
    `/campaign/${campaign}/events/${event}/report`,
    `/campaign/${campaign}/events/${event}/cash`,
    `/campaign/${campaign}/analytics`,
    `/campaign/${campaign}/champions/${champion}`,
    `/campaign/${campaign}/edit`,
    "/pledge/create-campaign",
    "/start-fundraiser",
    "/grantfunding",
  ];
}

/** The owner's own championship of the campaign (the demo data has none: made here once), for its circle's page. */
async function ownChampionCode(page: Page, campaign: number): Promise<string> {
  const mine = await page.request.get(`/api/campaigns/${campaign}/my-champion`);
  if (mine.ok()) return (await mine.json()).code;
  const session = await (await page.request.get("/api/auth/session")).json();
  const made = await page.request.post(`/api/campaigns/${campaign}/champions`, {
    headers: { "X-CSRFToken": session.csrf_token },
    data: { goal: 10_000 },
  });
  expect(made.status(), "the owner becomes a champion").toBe(201);
  return (await made.json()).code;
}

/** The options without text, and axe's buttons, links and controls without an accessible name. */
async function unnamed(page: Page): Promise<string[]> {
  const emptyOptions = await page
    .locator("option")
    .evaluateAll((options) =>
      options
        .filter((option) => !(option.textContent ?? "").trim() && !option.getAttribute("label"))
        .map((option) => `empty option in ${option.closest("select")?.id || "a select"}`),
    );
  const results = await new AxeBuilder({ page })
    .withRules(["button-name", "link-name", "select-name", "input-button-name", "aria-command-name", "label"])
    .analyze();
  const violations = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(" ")}`),
  );
  return [...emptyOptions, ...violations];
}

async function chooseLanguage(page: Page, language: "English" | "Kiswahili") {
  const session = await (await page.request.get("/api/auth/session")).json();
  const response = await page.request.put("/api/auth/language", {
    headers: { "X-CSRFToken": session.csrf_token },
    data: { language: language === "English" ? "en" : "sw" },
  });
  expect(response.ok()).toBe(true);
}

const ROLE_OPTIONS = {
  English: ["Owner", "Treasurer", "Usher", "Viewer"],
  Kiswahili: ["Mmiliki", "Mweka hazina", "Mpokeaji wageni", "Mtazamaji"],
};

for (const language of ["English", "Kiswahili"] as const) {
  test(`in ${language}, every signed-in page names each option, button and link`, async ({ page }) => {
    test.setTimeout(240_000);
    await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
    await chooseLanguage(page, language);
    const routes = await signedInRoutes(page);
    const problems: string[] = [];
    for (const route of routes) {
      await page.goto(route);
      await expect(page.locator("html")).toHaveAttribute("lang", language === "English" ? "en" : "sw");
      // The page has loaded: its skeleton is gone.
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      problems.push(...(await unnamed(page)).map((problem) => `${route}: ${problem}`));
    }
    expect(problems).toEqual([]);

    // The role drop-downs read by their text: the invitation's, and each member's.
    const organization = routes.find((route) => /^\/organizations\/\d+$/.test(route)) ?? "";
    await page.goto(organization);
    const invitationRole = page.getByLabel(language === "English" ? "Role" : "Nafasi", { exact: true });
    await expect(invitationRole.locator("option")).toHaveText(ROLE_OPTIONS[language]);
    await invitationRole.selectOption({ label: ROLE_OPTIONS[language][1] });
    await expect(invitationRole).toHaveValue("treasurer");
    const memberRoles = page.getByLabel(language === "English" ? /^Role of / : /^Nafasi ya /);
    expect(await memberRoles.count()).toBeGreaterThan(0);
    for (const select of await memberRoles.all()) {
      await expect(select.locator("option")).toHaveText(ROLE_OPTIONS[language]);
    }
    await chooseLanguage(page, "English");
  });
}
