import { expect, type Page } from "@playwright/test";
import { DEMO_ORGANIZER, expectAccessible, savedFeedback, signIn, test } from "./support";

async function openWithKeyboard(page: Page) {
  const button = page.getByRole("button", { name: "Send feedback" });
  await button.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Send us your feedback" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a visitor opens the widget with the keyboard; a short message is refused, a valid one is saved", async ({
  page,
}) => {
  await page.goto("/how-it-works");
  let dialog = await openWithKeyboard(page);
  await expect(dialog.getByLabel("Message")).toBeFocused();
  await expectAccessible(page);

  // Escape closes it and gives focus back to the button.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Send feedback" })).toBeFocused();

  dialog = await openWithKeyboard(page);
  await page.keyboard.type("Hi  ");
  await page.keyboard.press("Tab");
  await expect(dialog.getByText("Please enter a message of at least 5 characters.")).toBeVisible();

  const message = `The pledge reminders are great ${Date.now()}`;
  await dialog.getByLabel("Message").fill(message);
  await expect(dialog.getByText("Please enter a message of at least 5 characters.")).toBeHidden();
  await dialog.getByLabel("Email or phone (optional)").fill("0712345678");
  await dialog.getByRole("button", { name: "Send Feedback" }).click();

  await expect(page.getByText("Thank you for your feedback!", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(savedFeedback(message)).toEqual([
    { message, contact: "0712345678", page: "/how-it-works", email: null },
  ]);

  // The form starts empty next time.
  dialog = await openWithKeyboard(page);
  await expect(dialog.getByLabel("Message")).toHaveValue("");
});

test("a signed-in organizer sees Dashboard on the landing page, and their feedback is stored with their account", async ({
  page,
}) => {
  await signIn(page, DEMO_ORGANIZER);

  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
  await expect(header.getByRole("link", { name: "Sign In" })).toHaveCount(0);

  const dialog = await openWithKeyboard(page);
  const message = `Please add SMS receipts ${Date.now()}`;
  await page.keyboard.type(message);
  await dialog.getByRole("button", { name: "Send Feedback" }).click();
  await expect(page.getByText("Thank you for your feedback!", { exact: true })).toBeVisible();
  expect(savedFeedback(message)).toEqual([{ message, contact: "", page: "/", email: DEMO_ORGANIZER }]);
});
