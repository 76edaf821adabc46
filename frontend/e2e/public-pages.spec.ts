import { expect } from "@playwright/test";
import { expectAccessible, test } from "./support";

test("the landing page shows its header, hero, offerings, success stories, banner and footer", async ({
  page,
}) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/signin");
  await expect(header.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup");

  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(
    page.getByText("empower organizations to reach their funding goals with smart technology"),
  ).toBeVisible();
  await expect(page.getByText("free account").first()).toBeVisible();

  for (const [offering, features] of [
    ["Pledging Tool", ["Campaign creation", "Shareable links", "Automated reminders"]],
    ["Grant Discovery", ["Grant matching", "Application tracking", "Analytics"]],
    ["Crowdfunding", ["Campaign tools", "Social sharing", "Real-time analytics"]],
  ] as const) {
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: offering }) });
    for (const feature of features) await expect(card.getByText(feature, { exact: true })).toBeVisible();
  }

  const stories = page.getByRole("region", { name: "Success Stories" });
  await expect(stories.getByRole("heading", { level: 3 })).toHaveCount(3);
  await expect(stories.getByText(/^Ksh \d{1,3}(,\d{3})+ raised$/)).toHaveCount(3);

  await expect(page.getByRole("heading", { name: "Africa's Leading Fundraising Platform" })).toBeVisible();
  await expectAccessible(page);
});

test("'Get Started Now' and 'Sign Up' lead to /signup, 'Sign In' to /signin", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Get Started Now" }).click();
  await expect(page).toHaveURL("/signup");
  await page.goto("/");
  await page.getByRole("banner").getByRole("link", { name: "Sign Up" }).click();
  await expect(page).toHaveURL("/signup");
  await page.goto("/");
  await page.getByRole("banner").getByRole("link", { name: "Sign In" }).click();
  await expect(page).toHaveURL("/signin");
});

test("the footer has the tagline, the copyright year, Terms of Use in a new tab and placeholder items", async ({
  page,
}) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByText("Amplify Your Ministry with Digital Innovation")).toBeVisible();
  await expect(footer.getByText(String(new Date().getFullYear()))).toContainText("All Rights Reserved");
  await expect(footer.getByRole("link", { name: "Terms of Use" })).toHaveAttribute("target", "_blank");
  await expect(footer.getByRole("link", { name: "How it works" })).toHaveAttribute("href", "/how-it-works");
  await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  for (const placeholder of ["Featured", "Partnership", "Events", "Blog", "Invite a friend"]) {
    await expect(footer.getByText(placeholder, { exact: true })).toBeVisible();
    await expect(footer.getByRole("link", { name: placeholder })).toHaveCount(0);
  }
});

test("how it works shows four steps, four benefits and links to start a campaign and to explore", async ({
  page,
}) => {
  await page.goto("/how-it-works");
  await expect(page.getByRole("heading", { level: 1, name: "How it works" })).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByRole("region", { name: "Steps" }).getByRole("listitem")).toHaveCount(4);
  await expect(main.getByRole("region", { name: "Why Harambee" }).getByRole("listitem")).toHaveCount(4);
  await expect(main.getByRole("link", { name: "Start a Campaign" })).toHaveAttribute(
    "href",
    "/pledge/create-campaign",
  );
  await expect(main.getByRole("link", { name: "Explore Campaigns" })).toHaveAttribute("href", "/explore");
  await expectAccessible(page);
});
