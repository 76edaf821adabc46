import { expect } from "@playwright/test";
import { test } from "./support";

test("an unknown route shows the 404 page with status 404 and a home link", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL("/");
});

test("a pledge page id must be digits: /pledge/abc is the 404 page", async ({ page }) => {
  const response = await page.goto("/pledge/abc");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
});
