import { expect, type Page } from "@playwright/test";
import { expectAccessible, fillSignUp, test, uniqueEmail } from "./support";

const FOUND = (count: number) => `Found ${count} grant(s) matching your criteria`;

async function signUp(page: Page, email: string) {
  await fillSignUp(page, { firstName: "Grace", lastName: "Achieng", email });
  await expect(page).toHaveURL("/dashboard");
}

async function answer(page: Page, question: string, value: string, button = "Next") {
  await page.getByLabel(question, { exact: true }).fill(value);
  await page.getByRole("button", { name: button, exact: true }).click();
}

const cards = (page: Page) => page.getByRole("article");
const card = (page: Page, title: string) => page.getByRole("article", { name: title });

test("a new organization answers the questionnaire, subscribes, and finds, filters and tracks grants", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail("grants"));

  await page.goto("/grantfunding");
  await expect(page.getByRole("heading", { name: "Tell us about your organization" })).toBeVisible();
  await expect(page.getByText("Question 1 of 6")).toBeVisible();
  await expectAccessible(page);

  // Each answer must be non-blank after trimming.
  await answer(page, "Organization Name", "   ");
  await expect(page.getByText("Please answer this question.")).toBeVisible();
  await answer(page, "Organization Name", "Hope Community Church");
  const saved = page.waitForResponse(
    (response) => response.url().includes("/api/campaign-drafts/") && response.request().method() === "PUT",
  );
  await answer(page, "Mission Statement", "We serve families in Nairobi through schools and the gospel.");
  await saved;
  await expect(page.getByText("Question 3 of 6")).toBeVisible();

  // The draft is on the server: a fresh visit resumes at the same question.
  await page.reload();
  await expect(page.getByText("Question 3 of 6")).toBeVisible();
  await page.getByRole("button", { name: "Back", exact: true }).click();
  await expect(page.getByLabel("Mission Statement", { exact: true })).toHaveValue(
    "We serve families in Nairobi through schools and the gospel.",
  );
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await answer(page, "Focus Areas", "Education, Youth");
  await answer(page, "Organization Type", "Church");
  await answer(page, "Location", "Nairobi, Kenya");
  await answer(page, "Funding Range", "$10,000 - $50,000", "Complete");

  // Not a subscriber yet: the payment check asks for the subscription, with its price and period.
  const registration = page.getByRole("dialog", { name: "Complete Registration" });
  await expect(
    registration.getByText(
      "To unlock Grantfunding AI, subscribe for Ksh 2,500 for 365 days. You are charged only when you approve the M-Pesa PIN prompt or the card payment.",
    ),
  ).toBeVisible();
  await expect(registration.getByRole("button", { name: "Later" })).toBeVisible();
  await registration.getByRole("button", { name: "Start Subscription" }).click();

  const payment = page.getByRole("dialog", { name: "Subscribe to Grantfunding AI" });
  await expect(payment.getByTestId("fee-summary")).toContainText("Subscription: Ksh 2,500 for 365 days");
  await payment.getByText("Card", { exact: true }).click();
  await payment.getByRole("button", { name: "Continue to card payment" }).click();
  await page.frameLocator('iframe[title="Card payment"]').getByRole("button", { name: "Pay" }).click();
  await expect(payment.getByText(/^Payment received\./)).toBeVisible({ timeout: 15_000 });
  await payment.getByRole("button", { name: "Done" }).click();

  // The search, ranked by fit: best match first, the grant past its deadline last.
  await expect(page.getByText(FOUND(8))).toBeVisible();
  await expect(cards(page)).toHaveCount(8);
  const scores = (
    await cards(page)
      .getByText(/^\d+% match$/)
      .allTextContents()
  ).map((text) => Number.parseInt(text, 10));
  expect(scores.slice(0, 7)).toEqual([...scores.slice(0, 7)].sort((a, b) => b - a));
  await expect(cards(page).first().getByRole("heading")).toHaveText("Youth Leadership and Skills Fund");
  await expect(cards(page).first().getByText("Matches your focus on youth")).toBeVisible();
  await expect(cards(page).first().getByText("$40,000")).toBeVisible();
  await expect(cards(page).last().getByRole("heading")).toHaveText("Faith-Based Community Relief Fund");
  await expect(cards(page).last().getByText("Deadline passed")).toBeVisible();
  // The seeded grants are marked as samples; 'Apply Now' says so on this site, not at example.org.
  const sample = card(page, "Rural Literacy and Schools Grant");
  await expect(sample.getByText("Sample", { exact: true })).toBeVisible();
  await expect(sample.getByRole("link", { name: /Apply Now/ })).toHaveAttribute(
    "href",
    "/grantfunding/sample-grant",
  );
  await expectAccessible(page);

  // Filters narrow the list.
  await page.getByLabel("Amount").selectOption({ label: "Up to $25,000" });
  await expect(page.getByText(FOUND(2))).toBeVisible();
  await page.getByLabel("Category").selectOption({ label: "Education" });
  await expect(page.getByText(FOUND(1))).toBeVisible();
  await expect(cards(page).getByRole("heading")).toHaveText(["Rural Literacy and Schools Grant"]);
  await page.getByRole("button", { name: "Clear search and filters" }).click();
  await page.getByLabel("Location").selectOption("Kenya");
  await expect(page.getByText(FOUND(3))).toBeVisible();
  await page.getByLabel("Search", { exact: true }).fill("no such grant anywhere");
  await expect(page.getByText("No grants found matching your criteria.")).toBeVisible();
  await page.getByLabel("Search", { exact: true }).fill("borehole");
  await page.getByLabel("Location").selectOption("");
  await expect(page.getByText(FOUND(1))).toBeVisible();
  await expect(cards(page).getByRole("heading")).toHaveText(["Clean Water for Communities Fund"]);
  await page.getByRole("button", { name: "Clear search and filters" }).click();
  await expect(page.getByText(FOUND(8))).toBeVisible();

  // Tracking an application survives a reload.
  const literacy = card(page, "Rural Literacy and Schools Grant");
  await literacy.getByLabel("Application status").selectOption("applied");
  await literacy.getByLabel("Note").fill("Proposal sent");
  await literacy.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Application status saved.").first()).toBeVisible();
  await page.reload();
  await expect(page.getByText(FOUND(8))).toBeVisible();
  await expect(literacy.getByLabel("Application status")).toHaveValue("applied");
  await expect(literacy.getByLabel("Note")).toHaveValue("Proposal sent");

  await literacy.getByRole("link", { name: /Apply Now/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "This grant is a sample" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Back to grants" }).click();
  await expect(page.getByText(FOUND(8))).toBeVisible();
});

test("with a profile the tool goes straight to the payment check; an unfinished payment is not confirmed; Later leaves", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("grants-later"));
  const { csrf_token } = await (await page.request.get("/api/auth/session")).json();
  const saved = await page.request.put("/api/organizations/profile", {
    headers: { "X-CSRFToken": csrf_token },
    data: {
      organization_name: "Maji CBO",
      mission: "Safe water for every village.",
      focus_areas: "Clean water",
      organization_type: "Community-based organization",
      location: "Kitui, Kenya",
      funding_range: "25k-60k",
    },
  });
  expect(saved.ok()).toBe(true);

  await page.goto("/grantfunding");
  const registration = page.getByRole("dialog", { name: "Complete Registration" });
  await registration.getByRole("button", { name: "Start Subscription" }).click();
  await page
    .getByRole("dialog", { name: "Subscribe to Grantfunding AI" })
    .getByRole("button", { name: "Close" })
    .click();

  const unconfirmed = registration.getByText(
    "Payment not yet confirmed. Please wait a moment and try again shortly.",
  );
  await expect(unconfirmed).toBeVisible();
  await expect(unconfirmed).toBeHidden({ timeout: 7_000 });

  await registration.getByRole("button", { name: "Later" }).click();
  await expect(page).toHaveURL("/dashboard");
});
