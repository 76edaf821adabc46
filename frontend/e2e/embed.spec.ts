import { createServer, type Server } from "node:http";
import { expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, signIn, test, uniqueEmail } from "./support";

// The embed (backend/config/embed.py) on a church's own website: a plain HTML page served from another
// local origin includes the script the campaign's share panel gives; the widget shows the campaign and
// takes a pledge in its frame. The website is registered by the organization's owner first; a page on
// an origin nobody registered is refused the frame (its CSP's frame-ancestors).

// Both websites listen on ports the system picks: fixed ones would meet the other shards' servers.
let HOST = ""; // the church's website, registered
let STRANGER = ""; // a website nobody registered

/** A plain website on 127.0.0.1 whose one page holds ``snippet``. */
function website(snippet: () => string): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>St. Paul's Thika</title>` +
        `<meta name="viewport" content="width=device-width,initial-scale=1"></head>` +
        `<body><main><h1>Welcome to St. Paul's Thika</h1><p>Our harambee:</p>${snippet()}</main></body></html>`,
    );
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function origin(server: Server): string {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the website is not listening");
  return `http://127.0.0.1:${address.port}`;
}

async function ministryCampaignId(page: Page): Promise<number> {
  return (await (await page.request.get("/api/ministry-campaign")).json()).campaign_id;
}

let snippet = "";
const servers: Server[] = [];

test.beforeAll(async () => {
  const [host, stranger] = [await website(() => snippet), await website(() => snippet)];
  servers.push(host, stranger);
  [HOST, STRANGER] = [origin(host), origin(stranger)];
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

test("a church's website shows the embed and takes a pledge through it; another website may not frame it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000); // a first run on a busy machine: the server's first pages are slow
  const id = await ministryCampaignId(page);
  const campaign = await (await page.request.get(`/api/campaigns/${id}`)).json();

  // The owner registers the church's website, then copies the script from the campaign's share panel.
  await signIn(page, DEMO_ORGANIZER, { next: "/dashboard" });
  await page.goto(`/organizations/${campaign.organization_id}`);
  const websites = page.getByRole("region", { name: "Websites that show your campaigns" });
  await websites.getByLabel("Website address").fill(`${HOST}/`);
  await websites.getByRole("button", { name: "Add website" }).click();
  await expect(websites.getByText(HOST, { exact: true })).toBeVisible();
  await page.goto(`/campaign/${id}`);
  const codes = page.getByTestId("embed-codes");
  await expect(codes).toContainText(`Allowed websites: ${HOST}.`);
  snippet = await codes.getByLabel("With a script (sized to its content)").inputValue();
  expect(snippet).toContain(`data-campaign="${id}"`);
  expect(await codes.getByLabel(/A "Give" button only/).inputValue()).toContain(`/campaign/${id}/donate`);

  // A giver on the church's website, in a browser of their own (no Harambee cookie at all).
  const giverContext = await browser.newContext({ javaScriptEnabled: true });
  const giver = await giverContext.newPage();
  const response = await giver.request.get(`/embed/campaign/${id}`);
  expect(response.headers()["content-security-policy"]).toContain(`frame-ancestors ${HOST}`);
  await giver.goto(HOST);
  const widget = giver.frameLocator("iframe");
  await expect(widget.getByRole("heading", { name: campaign.title })).toBeVisible();
  // The frame grew to the widget's height (postMessage from the frame, checked by the loader).
  await expect
    .poll(async () => giver.locator("iframe").evaluate((frame: HTMLIFrameElement) => frame.style.height))
    .not.toBe("560px");
  await expectAccessible(giver);

  await widget.getByLabel("Your name").fill("Wanjiru Kamau");
  await widget.getByLabel("Phone number (M-Pesa)").fill("0712 345 678");
  await widget.getByLabel("Email").fill(uniqueEmail("embed"));
  await widget.getByLabel("Amount (Ksh)").fill("2,500");
  await widget.getByRole("button", { name: "Pledge", exact: true }).click();
  await expect(widget.getByRole("heading", { name: "Thank you for your pledge!" })).toBeVisible();
  const code = (await widget.locator("strong").last().textContent()) ?? "";
  expect(code).toMatch(/^[2-9A-HJKMNP-Z]{7}$/);
  const pledge = await (await giver.request.get(`/api/pledges/${code}`)).json();
  expect(pledge.amount).toBe(2500);
  await expect(widget.getByRole("link", { name: "Pay now" })).toHaveAttribute("target", "_blank");

  // The same script on a website nobody registered: the browser refuses the frame.
  const refusals: string[] = [];
  giver.on("console", (message) => {
    if (message.text().includes("frame-ancestors")) refusals.push(message.text());
  });
  await giver.goto(STRANGER);
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
  await expect(widget.getByRole("heading", { name: campaign.title })).toHaveCount(0);
  await giverContext.close();
});

test("the embed speaks Kiswahili when asked and the signed-in app is never framed", async ({ page }) => {
  const id = await ministryCampaignId(page);
  await page.goto(`/embed/campaign/${id}?lang=sw`);
  await expect(page.locator("html")).toHaveAttribute("lang", "sw");
  await expect(page.getByRole("heading", { name: "Toa ahadi" })).toBeVisible();
  await expectAccessible(page);
  for (const path of ["/", `/campaign/${id}`, "/dashboard"]) {
    const headers = (await page.request.get(path)).headers();
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  }
});
