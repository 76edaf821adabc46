import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signIn, test } from "./support";

const MEMBER = "member@harambee.local";
const ADMIN = "admin@harambee.local";
// Demo campaigns (backend/campaigns/demo.py): Brian's is medical and organized by the demo organizer,
// who also organizes the greenhouse one; the member organizes neither.
const DIALYSIS = "Dialysis Support for Brian Kiprotich";
const GREENHOUSE = "Greenhouse for the Nyandarua Women's Group";

/** A toast (Radix also copies its text into a screen-reader announcement, hence first()). */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

type Listed = { id: number; title: string; pledged_total: number; goal: number };

/** The active demo campaign with this title, as a visitor finds it through the API. */
async function findCampaign(request: APIRequestContext, title: string): Promise<Listed> {
  const response = await request.get(`/api/campaigns?q=${encodeURIComponent(title)}`);
  const campaigns: Listed[] = await response.json();
  const campaign = campaigns.find((found) => found.title === title);
  expect(campaign, title).toBeDefined();
  return campaign as Listed;
}

const campaignId = async (request: APIRequestContext, title: string) =>
  (await findCampaign(request, title)).id;

/** Money as the app shows it: 'Ksh 12,500'. */
const ksh = (amount: number) => `Ksh ${amount.toLocaleString("en-KE")}`;

const PAGE_SIZE = 12;
const cards = (page: Page) => page.getByRole("main").getByRole("listitem");

test.describe("campaigns", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("explore, search, filter, open a campaign, copy its link, and like it once signed in", async ({
    page,
    request,
  }) => {
    // The demo data grows with the features; the page must show what the API counts.
    const listed = await request.get("/api/campaigns?type=pledging&page_size=1");
    const total = Number(listed.headers()["x-total-count"]);
    await page.goto("/explore");
    await expect(page.getByRole("heading", { name: "Explore Campaigns" })).toBeVisible();
    await expect(page.getByText(`${total} campaigns`)).toBeVisible();
    await expect(cards(page)).toHaveCount(Math.min(total, PAGE_SIZE));
    const loadMore = page.getByRole("button", { name: "Load more" });
    if (total > PAGE_SIZE) {
      await loadMore.click();
      await expect(cards(page)).toHaveCount(Math.min(total, 2 * PAGE_SIZE));
    } else {
      await expect(loadMore).toBeHidden();
    }

    // Search: the URL keeps the query so the search can be shared.
    await page.getByLabel("Search campaigns").fill("Brian");
    await expect(page).toHaveURL("/explore?q=Brian");
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText(DIALYSIS);
    // Pledges change the figures, so they come from the API.
    const dialysis = await findCampaign(request, DIALYSIS);
    await expect(cards(page).first()).toContainText(
      `${ksh(dialysis.pledged_total)} pledged of ${ksh(dialysis.goal)}`,
    );

    // Filter by category, on top of the search.
    await page.getByRole("button", { name: "Education", exact: true }).click();
    await expect(page).toHaveURL("/explore?q=Brian&category=education");
    await expect(page.getByRole("heading", { name: "No campaigns found" })).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filters")).toBeVisible();
    await page.getByRole("button", { name: "Medical", exact: true }).click();
    await expect(page).toHaveURL("/explore?q=Brian&category=medical");
    await expect(page.getByRole("button", { name: "Medical", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(cards(page)).toHaveCount(1);

    // A shared search link opens with the same search.
    await page.reload();
    await expect(page.getByLabel("Search campaigns")).toHaveValue("Brian");
    await expect(cards(page)).toHaveCount(1);
    await page.getByLabel("Search campaigns").fill("");
    await expect(page).toHaveURL("/explore?category=medical");
    await expect(cards(page)).toHaveCount(2);

    await page.getByRole("link", { name: new RegExp(DIALYSIS) }).click();
    await expect(page).toHaveURL(/\/campaign\/\d+$/);
    const campaignUrl = page.url();
    await expect(page.getByRole("heading", { level: 1, name: DIALYSIS })).toBeVisible();
    await expect(page.getByText("Organized by Grace Wanjiku")).toBeVisible();
    await expect(page.getByText(ksh(dialysis.pledged_total), { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Pledge", exact: true })).toHaveAttribute(
      "href",
      `${new URL(campaignUrl).pathname}/pledge`,
    );
    await expect(page.getByRole("link", { name: "Donate", exact: true })).toHaveAttribute(
      "href",
      `${new URL(campaignUrl).pathname}/donate`,
    );
    // Visitors see neither the status badge nor an Edit button.
    await expect(page.getByText("Active", { exact: true })).toBeHidden();
    await expect(page.getByRole("link", { name: "Edit", exact: true })).toBeHidden();

    // Share panel: Copy Link says 'Copied!' for 1.5 s; the networks get the address and the title.
    await page.getByRole("button", { name: "Copy Link" }).click();
    await expect(page.getByRole("button", { name: "Copied!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(campaignUrl);
    await expect(page.getByRole("button", { name: "Copy Link" })).toBeVisible({ timeout: 3000 });
    const encodedUrl = encodeURIComponent(campaignUrl);
    const share = page.getByRole("region", { name: "Share this campaign" });
    await expect(share.getByRole("link", { name: /Twitter/ })).toHaveAttribute(
      "href",
      `https://twitter.com/intent/tweet?text=${encodeURIComponent(DIALYSIS)}&url=${encodedUrl}`,
    );
    await expect(share.getByRole("link", { name: /Facebook/ })).toHaveAttribute(
      "href",
      `https://www.facebook.com/sharer/sharer.php?u=${encodedUrl}`,
    );
    await expect(share.getByRole("link", { name: /WhatsApp/ })).toHaveAttribute(
      "href",
      `https://wa.me/?text=${encodeURIComponent(`${DIALYSIS} ${campaignUrl}`)}`,
    );
    const qr = share.getByRole("img", { name: `QR code of the link to ${DIALYSIS}` });
    await qr.scrollIntoViewIfNeeded();
    await expect(qr).toHaveJSProperty("complete", true);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download QR code (PNG)" }).click();
    expect((await download).suggestedFilename()).toMatch(/^campaign-\d+-qr\.png$/);

    // Liking needs an account.
    const like = page.getByRole("button", { name: "Like" });
    await like.click();
    await expect(toastText(page, "Please sign in to like campaigns")).toBeVisible();
    await expect(like).toHaveAttribute("aria-pressed", "false");

    await signIn(page, MEMBER, { next: new URL(campaignUrl).pathname });
    await expect(like).toHaveAttribute("aria-pressed", "false");
    await like.click();
    await expect(like).toHaveAttribute("aria-pressed", "true");
    await page.reload();
    await expect(like).toHaveAttribute("aria-pressed", "true");
    // Like counts are for admins only.
    await expect(page.getByText(/\d+ likes?$/)).toBeHidden();
    await like.click();
    await expect(like).toHaveAttribute("aria-pressed", "false");
    await page.reload();
    await expect(like).toHaveAttribute("aria-pressed", "false");
  });

  test("the organizer edits their campaign and sees the change after a reload", async ({ page, request }) => {
    const id = await campaignId(request, GREENHOUSE);
    const description = `Thirty women farmers, two greenhouses, tomatoes all year (${Date.now()}).`;
    await signIn(page, DEMO_ORGANIZER, { next: `/campaign/${id}` });
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(page).toHaveURL(`/edit-campaign/${id}`);
    await expect(page.getByLabel("Title")).toHaveValue(GREENHOUSE);
    await expect(page.getByLabel("Goal Amount (Ksh)")).toHaveValue("500000");

    // Checked as the organizer types; the server's own messages appear under the fields too.
    await page.getByLabel("Title").fill(" ");
    await expect(page.getByText("Title is required")).toBeVisible();
    await page.getByLabel("Title").fill(GREENHOUSE);
    await page.getByLabel("YouTube Link").fill("https://vimeo.com/12345");
    await expect(page.getByText("Please enter a valid YouTube link.")).toBeVisible();
    await page.getByLabel("YouTube Link").fill("");
    await page.getByLabel("Description").fill(description);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(toastText(page, "Campaign Updated!")).toBeVisible();
    await expect(page).toHaveURL("/dashboard");

    await page.goto(`/campaign/${id}`);
    await expect(page.getByText(description)).toBeVisible();
    await page.reload();
    await expect(page.getByText(description)).toBeVisible();
    // The other address of the same page.
    await page.goto(`/campaign/${id}/edit`);
    await expect(page.getByLabel("Description")).toHaveValue(description);
  });

  test("someone who does not organize a campaign cannot edit it", async ({ page, request }) => {
    const id = await campaignId(request, GREENHOUSE);
    await page.goto(`/edit-campaign/${id}`);
    await expect(page.getByText("Please sign in to edit this campaign.")).toBeVisible();
    await expect(page.getByLabel("Title")).toBeHidden();

    await signIn(page, MEMBER, { next: `/edit-campaign/${id}` });
    await expect(page.getByText("You can only edit campaigns you organize.")).toBeVisible();
    await expect(page.getByLabel("Title")).toBeHidden();
    await page.goto(`/campaign/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: GREENHOUSE })).toBeVisible();
    await expect(page.getByRole("link", { name: "Edit", exact: true })).toBeHidden();
  });

  test("an admin sees the status badge and like counts, and edits the story in a dialog", async ({
    page,
    request,
  }) => {
    const id = await campaignId(request, GREENHOUSE);
    const story = `Two greenhouses with drip irrigation for the Tumaini Women's Group (${Date.now()}).`;
    await signIn(page, ADMIN, { next: `/campaign/${id}` });
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: /Like/ })).toContainText(/\d+ likes?/);

    await page.getByRole("button", { name: "Edit Campaign" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Campaign" });
    await expect(dialog.getByLabel("Category")).toHaveValue("business");
    await dialog.getByLabel("Story").fill("");
    await expect(dialog.getByText("Story is required")).toBeVisible();
    await dialog.getByLabel("Story").fill(story);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(toastText(page, "Campaign Updated!")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(story)).toBeVisible();
    await page.reload();
    await expect(page.getByText(story)).toBeVisible();
  });

  test("the HTML of a campaign page carries its link-preview tags and the campaign itself", async ({
    page,
  }) => {
    const { id, pledged_total } = await findCampaign(page.request, DIALYSIS);
    const response = await page.request.get(`/campaign/${id}`);
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<meta property="og:title" content="${DIALYSIS}">`);
    expect(html).toMatch(
      /<meta property="og:image" content="http[^"]+\/static\/campaigns\/covers\/medical\.svg">/,
    );
    expect(html).toContain('id="page-queries"');

    // The campaign in the page renders it before (here: without) the API's answer.
    await page.route(`**/api/campaigns/${id}`, () => {});
    await page.goto(`/campaign/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: DIALYSIS })).toBeVisible();
    await expect(page.getByText(ksh(pledged_total), { exact: true })).toBeVisible();
  });

  test("the explore and campaign pages have no serious accessibility problems", async ({ page }) => {
    await page.goto("/explore");
    await expect(cards(page).first()).toBeVisible();
    await expectAccessible(page);
    const id = await campaignId(page.request, DIALYSIS);
    await page.goto(`/campaign/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: DIALYSIS })).toBeVisible();
    await expectAccessible(page);
  });

  test("an unknown campaign says 'Campaign not found'; a non-numeric id is the 404 page", async ({
    page,
  }) => {
    const response = await page.goto("/campaign/987654");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Campaign not found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to Campaigns" }).click();
    await expect(page).toHaveURL("/explore");

    await page.goto("/campaign/abc");
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  });
});
