import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import { ChampionsPanel } from "./ChampionsPanel";

const ROSTER = "/api/campaigns/{campaign_id}/champion-roster";
const CHAMPION = "/api/campaigns/{campaign_id}/champions/{champion_code}";
const HIDDEN = {
  code: "ABC234",
  name: "Amina Hassan",
  team_id: 1,
  goal: 20_000,
  on_leaderboard: false,
  card_number: 3,
  card_returned: true,
  raised: 700,
  pledged: 2_500,
};
const CHOIR = { id: 1, name: "Choir", goal: 90_000, raised: 700, pledged: 2_500, champions: 1 };

describe("ChampionsPanel", () => {
  it("lists every champion, named on the board or not, with their card, and each team's totals", async () => {
    server.use(
      http.get(ROSTER, ({ response }) => response(200).json({ champions: [HIDDEN], teams: [CHOIR] })),
    );
    renderWithProviders(<ChampionsPanel campaignId={4} canAct={false} />);

    const champions = await screen.findByRole("table", { name: "Champions" });
    const [, row] = within(champions).getAllByRole("row");
    expect(row).toHaveTextContent("Amina HassanChoir3returnedKsh 700Ksh 2,500Ksh 20,000");
    expect(
      within(row as HTMLElement).getByRole("checkbox", { name: "Amina Hassan on the leaderboards" }),
    ).toBeDisabled();
    const teams = screen.getByRole("table", { name: "Teams" });
    expect(within(teams).getAllByRole("row")[1]).toHaveTextContent("Choir1Ksh 700Ksh 2,500Ksh 90,000");
    expect(screen.queryByRole("link", { name: "Print harambee cards" })).toBeNull();
  });

  it("lets those who manage pledges put a champion back on the board, and print the cards", async () => {
    const sent: unknown[] = [];
    server.use(
      http.get(ROSTER, ({ response }) => response(200).json({ champions: [HIDDEN], teams: [CHOIR] })),
      http.patch(CHAMPION, async ({ request, response }) => {
        sent.push(await request.json());
        return response(200).json({
          code: "ABC234",
          name: "Amina Hassan",
          appeal: "",
          goal: 20_000,
          team: { id: 1, name: "Choir", goal: 90_000 },
          on_leaderboard: true,
          card_number: 3,
          page_url: "http://testserver/campaign/4/c/ABC234",
        });
      }),
    );
    const { user } = renderWithProviders(<ChampionsPanel campaignId={4} canAct />);

    await user.click(await screen.findByRole("checkbox", { name: "Amina Hassan on the leaderboards" }));

    await expect.poll(() => sent).toEqual([{ on_leaderboard: true, leave_team: false }]);
    expect(screen.getByRole("link", { name: "Print harambee cards" })).toHaveAttribute(
      "href",
      "/api/campaigns/4/harambee-cards.pdf",
    );
  });
});
