import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { expectAccessible, fillSignUp, test, uniqueEmail } from "./support";

const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test("a new user downloads their data, then deletes the account and can no longer sign in", async ({
  page,
}) => {
  const email = uniqueEmail("privacy");
  const password = "Harambee#1";

  await fillSignUp(page, { firstName: "Akinyi", lastName: "Odhiambo", email, password });
  await expect(page).toHaveURL("/dashboard");

  // A pledge with the account's e-mail address is theirs.
  const session = await (await page.request.get("/api/auth/session")).json();
  const ministry = await (await page.request.get("/api/ministry-campaign")).json();
  const pledged = await page.request.post("/api/pledges", {
    data: { campaign_id: ministry.campaign_id, name: "Akinyi O.", email, phone: "0712345678", amount: 750 },
    headers: { "X-CSRFToken": session.csrf_token },
  });
  expect(pledged.ok(), await pledged.text()).toBe(true);

  await page.goto("/profile");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^harambee-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync(await download.path(), "utf-8"));
  expect(data.account).toMatchObject({ email, first_name: "Akinyi", phone: "+254712345678" });
  expect(data.pledges).toEqual([expect.objectContaining({ email, amount: 750, name: "Akinyi O." })]);

  // The dialog works from the keyboard alone.
  await page.getByRole("button", { name: "Delete my account" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Delete my account" })).toBeFocused();

  await page.keyboard.press("Enter");
  await dialog.getByLabel("Your password", { exact: true }).fill("Wrong#2026");
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("alert")).toHaveText(
    "The password is incorrect. Your account was not deleted.",
  );

  await dialog.getByLabel("Your password", { exact: true }).fill(password);
  await page.keyboard.press("Enter");
  await expect(toastText(page, "Your account has been deleted.")).toBeVisible();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();

  await page.goto("/signin");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(toastText(page, "Invalid email or password.")).toBeVisible();
});

test("the privacy notice is reachable from the footer and has no serious accessibility problems", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();

  await expect(page).toHaveURL("/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "Privacy notice" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your rights" })).toBeVisible();
  await expect(page.getByRole("link", { name: "privacy@harambee.local" })).toHaveAttribute(
    "href",
    "mailto:privacy@harambee.local",
  );
  await expectAccessible(page);
});
