import { expect } from "@playwright/test";
import { expectAccessible, fillSignUp, pledgeDialog, test, uniqueEmail } from "./support";

// A campaign of the demo member's that no other spec pledges to, so the demo organizer's figures the
// analytics spec reads stay as they were (this spec's name sorts after it anyway).
const MATHARE = "Football Kits for Mathare Youth League";

test("a member becomes a champion, a visitor pledges through their page, and both boards and their circle show it", async ({
  browser,
  page,
}) => {
  // Three people, four pages and three accessibility checks: longer than a check, on a busy machine.
  test.setTimeout(90_000);
  const found = await (await page.request.get(`/api/campaigns?q=${encodeURIComponent("Mathare")}`)).json();
  const campaignId: number = found.find((campaign: { title: string }) => campaign.title === MATHARE).id;
  // Letters only: names take no digits. A new one each run.
  const run = [...String(Date.now() % 100_000)].map((digit) => "abcdefghij"[Number(digit)]).join("");
  const champion = `Wanjiku Champion${run}`;
  const giver = `Otieno Giver ${run}`;

  // A member signs up and becomes a champion on the campaign's page.
  await fillSignUp(page, {
    firstName: "Wanjiku",
    lastName: `Champion${run}`,
    email: uniqueEmail("champion"),
  });
  await expect(page).toHaveURL("/dashboard");
  await page.goto(`/campaign/${campaignId}`);
  const section = page.getByRole("region", { name: "Champions" });
  await section.getByRole("button", { name: "Become a champion" }).click();
  const form = section.getByRole("form", { name: "Become a champion" });
  await expect(form.getByLabel("Your name, as your page shows it")).toHaveValue(champion);
  await form.getByLabel("Your appeal").fill("Our boys and girls play barefoot: help me buy their boots.");
  await form.getByLabel("Your goal (Ksh)").fill("20,000");
  await form.getByRole("button", { name: "Become a champion" }).click();
  await expect(section.getByRole("heading", { name: "You are a champion of this campaign" })).toBeVisible();
  await expect(section.getByRole("link", { name: "Share on WhatsApp" })).toHaveAttribute(
    "href",
    /^https:\/\/wa\.me\//,
  );
  await expect(section.getByRole("img", { name: "QR code of your champion page" })).toBeVisible();
  const code = ((await section.locator("strong.font-mono").textContent()) ?? "").trim();
  expect(code).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
  await expectAccessible(page);

  // A visitor opens the champion's page (the server's HTML) and pledges through it.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/campaign/${campaignId}/c/${code}`);
  await expect(visitor.getByRole("heading", { name: champion, level: 1 })).toBeVisible();
  await visitor.getByRole("link", { name: `Pledge through ${champion}` }).click();
  await expect(visitor).toHaveURL(new RegExp(`/campaign/${campaignId}/pledge\\?champion=${code}$`));
  const dialog = await pledgeDialog(visitor);
  await dialog.getByLabel("Full name").fill(giver);
  await dialog.getByLabel("Email").fill(uniqueEmail("giver"));
  await dialog.getByLabel("Phone number").fill("0712 000 451");
  await dialog.getByLabel("Amount (Ksh)").fill("2,500");
  await dialog.getByRole("button", { name: "Submit pledge" }).click();
  await expect(dialog.getByTestId("pledge-code")).toBeVisible();

  // The campaign's leaderboard names the champion with the pledge.
  await visitor.goto(`/campaign/${campaignId}`);
  const board = visitor.getByRole("region", { name: "Champions" });
  await board.getByRole("button", { name: "Overall" }).click();
  await expect(board.getByRole("listitem").filter({ hasText: champion })).toContainText("Ksh 2,500 pledged");
  await expect(board.getByRole("button", { name: "Become a champion" })).toHaveCount(0);
  await expectAccessible(visitor);

  // The champion's own view shows the gift and reminds who still owes.
  await page.reload();
  await page.getByRole("link", { name: "See who gave through you" }).click();
  await expect(page).toHaveURL(`/campaign/${campaignId}/champions/${code}`);
  await expect(page.getByRole("heading", { name: `${champion}'s circle`, level: 1 })).toBeVisible();
  const gift = page.getByRole("listitem").filter({ hasText: giver });
  await expect(gift).toContainText("Ksh 0 paid, Ksh 2,500 owed");
  await page.getByRole("button", { name: "Remind my circle" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Reminders sent" })).toHaveText(
    "Reminders sent: 1.",
  );
  await expectAccessible(page);
});
