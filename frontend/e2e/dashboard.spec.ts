import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signIn, test } from "./support";

const ROOT = join(import.meta.dirname, "..", "..");
const DATABASE = join(ROOT, ".tmp", `e2e-${process.env.E2E_PORT ?? 8123}`, "db.sqlite3");

type Figures = { active: number; pledged: number; paid: number; titles: string[] };

/** What the dashboard should show for `email`, read straight from the e2e server's SQLite file. */
function expectedFigures(email: string): Figures {
  const script = `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
mine = "FROM campaigns_campaign c JOIN accounts_user u ON u.id = c.organizer_id WHERE u.email = ? AND c.type = 'pledging'"
active, pledged, paid = db.execute(
    "SELECT COALESCE(SUM(c.status = 'active'), 0), COALESCE(SUM(c.pledged_total), 0),"
    " COALESCE(SUM(c.raised_total), 0) " + mine, (sys.argv[2],)).fetchone()
titles = [row[0] for row in db.execute("SELECT c.title " + mine, (sys.argv[2],))]
print(json.dumps({"active": active, "pledged": pledged, "paid": paid, "titles": titles}))
`;
  const output = execFileSync(join(ROOT, ".venv", "bin", "python"), ["-c", script, DATABASE, email], {
    encoding: "utf-8",
  });
  return JSON.parse(output);
}

const kes = (amount: number) => `KES ${new Intl.NumberFormat("en-KE").format(amount)}`;

function stat(page: Page, label: string) {
  return page.locator("dl > div").filter({ has: page.getByRole("term").getByText(label, { exact: true }) });
}

test("the demo organizer sees their figures, their campaigns only, and the tools", async ({ page }) => {
  await signIn(page, DEMO_ORGANIZER);
  const expected = expectedFigures(DEMO_ORGANIZER);
  expect(expected.active).toBeGreaterThan(0);

  // Grant matches come from the grant tool's own matching; the API's figure is the one to show.
  const api = await (await page.request.get("/api/dashboard")).json();

  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Hello, Grace" })).toBeVisible();

  await expect(stat(page, "Grant Matches").getByRole("definition")).toHaveText(String(api.grant_matches));
  await expect(stat(page, "Active Campaigns").getByRole("definition")).toHaveText(String(expected.active));
  await expect(stat(page, "Total Pledges").getByRole("definition")).toHaveText(kes(expected.pledged));
  await expect(stat(page, "Paid so far").getByRole("definition")).toHaveText(kes(expected.paid));

  const campaigns = page.getByRole("region", { name: "My Pledging Campaigns" });
  await expect(campaigns.getByRole("article")).toHaveCount(expected.titles.length);
  for (const title of expected.titles) {
    await expect(campaigns.getByRole("article", { name: title })).toBeVisible();
  }
  // Another organizer's campaign is not among them, and like counts are for admins only.
  await expect(campaigns.getByText("Medical Bills for Mama Wanjiru's Surgery")).toHaveCount(0);
  await expect(campaigns.getByText(/\d+ likes?$/)).toHaveCount(0);
  await expect(campaigns.getByRole("link", { name: "Create Campaign" })).toHaveAttribute(
    "href",
    "/pledge/create-campaign",
  );

  const tools = page.getByRole("region", { name: "Your tools" });
  await expect(tools.getByRole("link", { name: /Pledging Tool/ })).toHaveAttribute(
    "href",
    "/pledge/create-campaign",
  );
  await expect(tools.getByRole("link", { name: /Grant Funding Tool/ })).toHaveAttribute(
    "href",
    "/grantfunding",
  );
  const contentTool = tools.getByRole("link", { name: /Organization Content Tool/ });
  await expect(contentTool).toHaveAttribute("href", api.organization_content_tool_url);
  await expect(contentTool).toHaveAttribute("target", "_blank");
  await expect(contentTool).toHaveAttribute("rel", "noopener noreferrer");
  await expect(tools.getByRole("button", { name: /Crowdfunding/ })).toHaveAttribute("aria-disabled", "true");
  await expect(tools.getByText("Coming soon")).toBeVisible();

  await expect(page.getByRole("heading", { name: "Quick Start Guide" })).toBeVisible();
  await expectAccessible(page);
});

test("the dashboard needs a signed-in user", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL("/signin?next=%2Fdashboard");
});
