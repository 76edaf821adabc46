import { type APIRequestContext, expect, type Page } from "@playwright/test";
import {
  DEMO_ORGANIZER,
  DEMO_PASSWORD,
  expectAccessible,
  fillSignUp,
  latestEmailTo,
  signInWithForm,
  test,
  uniqueEmail,
} from "./support";

const PHONE_MESSAGE = "Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)";

/** A toast (Radix also copies its text into a screen-reader announcement, hence first()). */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(toastText(page, "Signed out")).toBeVisible();
  await expect(page).toHaveURL("/");
}

/** An account made through the API, with its own cookies (the browser stays signed out). */
async function createAccount(request: APIRequestContext, email: string, password: string) {
  const { csrf_token } = await (await request.get("/api/auth/session")).json();
  const response = await request.post("/api/signup", {
    headers: { "X-CSRFToken": csrf_token },
    data: {
      first_name: "Achieng",
      last_name: "Otieno",
      email,
      phone: "+254722000333",
      id_number: "23456789",
      password,
      confirm_password: password,
    },
  });
  expect(response.status()).toBe(201);
}

test("sign up, sign out, sign in, edit the profile, change the password and sign in with it", async ({
  page,
}) => {
  const email = uniqueEmail("signup");
  const password = "Harambee#1";
  const newPassword = "Changed#2026";

  await fillSignUp(page, { firstName: "Wanjiru", lastName: "Kamau", email, password });

  await expect(toastText(page, "Sign Up Successful")).toBeVisible();
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("heading", { name: "Hello, Wanjiru" })).toBeVisible();
  await expect(toastText(page, "Welcome, Wanjiru!")).toBeVisible();
  // A new user is not welcomed back.
  await expect(page.getByText("glad to see you back")).toHaveCount(0);

  await signOut(page);
  await signInWithForm(page, email, { password: password });
  await expect(toastText(page, "Welcome Back, Wanjiru. Redirecting to dashboard...")).toBeVisible();
  await expect(page).toHaveURL("/dashboard");

  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("link", { name: "Profile", exact: true }).click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Email")).toHaveAttribute("readonly", "");
  await expect(page.getByLabel("Phone Number")).toHaveValue("+254712345678");
  await page.getByLabel("First Name").fill("Njeri");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(toastText(page, "Profile updated successfully.")).toBeVisible();
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByText("Welcome, Njeri", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Close menu" }).click();

  await page.getByRole("button", { name: "Change Password" }).click();
  const dialog = page.getByRole("dialog", { name: "Change Password" });
  await dialog.getByLabel("Current Password", { exact: true }).fill(password);
  await dialog.getByLabel("New Password", { exact: true }).fill("weakpass");
  await expect(
    dialog.getByText("Password must be at least 8 characters and include numbers, letters, and symbols."),
  ).toBeVisible();
  await dialog.getByLabel("New Password", { exact: true }).fill(newPassword);
  await dialog.getByLabel("Confirm New Password", { exact: true }).fill(newPassword);
  await dialog.getByRole("button", { name: "Update Password" }).click();
  await expect(toastText(page, "Password updated successfully.")).toBeVisible();
  await expect(dialog).toBeHidden();

  await signOut(page);
  await signInWithForm(page, email, { password: newPassword });
  await expect(page).toHaveURL("/dashboard");
});

test("forgot password: the e-mailed link sets a new password; the old one stops working", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("reset");
  const oldPassword = "Original#1";
  const newPassword = "Renewed#22";
  await createAccount(request, email, oldPassword);

  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL("/forgot-password");
  await page.getByLabel("Email").fill(uniqueEmail("nobody"));
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(
    page.getByText("This email is not registered. Please check your email address or create a new account."),
  ).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Sign In" })).toHaveAttribute("href", "/signin");

  // The welcome e-mail went to the same address first: wait for the one with the link.
  let resetPath = "";
  await expect
    .poll(async () => {
      const link = (await latestEmailTo(email)).match(/\/reset-password\?uid=[\w-]+&(?:amp;)?token=[\w-]+/);
      resetPath = link?.[0].replace("&amp;", "&") ?? "";
      return resetPath;
    })
    .not.toBe("");
  await page.goto(resetPath);
  await page.getByLabel("New Password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm New Password", { exact: true }).fill("Renewed#2");
  await expect(page.getByText("Passwords do not match", { exact: true })).toBeVisible();
  await page.getByLabel("Confirm New Password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Your password has been reset.")).toBeVisible();

  // The link works once.
  await page.goto(resetPath);
  await page.getByLabel("New Password", { exact: true }).fill("Another#333");
  await page.getByLabel("Confirm New Password", { exact: true }).fill("Another#333");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByRole("alert")).toContainText("invalid or has expired");

  await signInWithForm(page, email, { password: oldPassword });
  await expect(toastText(page, "Sign In Error")).toBeVisible();
  await expect(toastText(page, "Invalid email or password.")).toBeVisible();
  await expect(page).toHaveURL("/signin");

  await signInWithForm(page, email, { password: newPassword });
  await expect(page).toHaveURL("/dashboard");
});

test("a signed-out visit to /profile goes to sign in and comes back after it", async ({ page }) => {
  await page.goto("/profile");
  await expect(page).toHaveURL("/signin?next=%2Fprofile");
  await page.getByLabel("Email", { exact: true }).fill(DEMO_ORGANIZER);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
});

test("the sign-in and sign-up pages have no serious accessibility problems", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible();
  await expectAccessible(page);
  await page.goto("/signup");
  await page.getByLabel("Email").fill("not-an-email");
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expectAccessible(page);
});

test("sign-up fields are checked as the user types; sign-in stays disabled until valid", async ({ page }) => {
  await page.goto("/signup");
  const phone = page.getByLabel("Phone Number");
  await phone.fill("0812345678");
  await expect(page.getByText(PHONE_MESSAGE)).toBeVisible();
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await phone.fill("+254 712 345 678");
  await expect(page.getByText(PHONE_MESSAGE)).toBeHidden();
  await expect(phone).not.toHaveAttribute("aria-invalid");

  await page.goto("/signin");
  const submit = page.getByRole("button", { name: "Sign In", exact: true });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Email", { exact: true }).fill(DEMO_ORGANIZER);
  await expect(submit).toBeDisabled();
  await page.getByLabel("Password", { exact: true }).fill("x");
  await expect(submit).toBeEnabled();
  await page.getByRole("button", { name: "Show Password" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
  await expect(page.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup");
  await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
});

test("signing up with a registered e-mail shows the server's message under Email", async ({ page }) => {
  await fillSignUp(page, {
    firstName: "Grace",
    lastName: "Wanjiku",
    email: DEMO_ORGANIZER,
    phone: "+254712345678",
  });
  await expect(
    page.getByText(
      "This email is already registered. Please use a different email address or sign in if you already have an account.",
    ),
  ).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL("/signup");
});
