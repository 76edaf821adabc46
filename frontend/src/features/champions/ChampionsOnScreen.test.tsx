import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import { ChampionsOnScreen } from "./ChampionsOnScreen";

const BOARDS = "/api/campaigns/{campaign_id}/champions";
const EMPTY = { champions: [], teams: [], raised: 0 };
const AMINA = { code: "ABC234", name: "Amina Hassan", team: "", goal: 20_000, raised: 1_500, pledged: 0 };

describe("ChampionsOnScreen", () => {
  it("shows tonight's champions on the big screen", async () => {
    const tonight = { champions: [AMINA], teams: [], raised: 1_500 };
    server.use(
      http.get(BOARDS, ({ response }) =>
        response(200).json({ overall: tonight, tonight, since: "2026-11-27T21:00:00Z" }),
      ),
    );
    renderWithProviders(<ChampionsOnScreen campaignId={4} />);

    expect(await screen.findByRole("heading", { name: "Champions tonight" })).toBeVisible();
    expect(screen.getByRole("listitem")).toHaveTextContent("1. Amina HassanKsh 1,500");
  });

  it("takes no room on a night without gifts through champions", async () => {
    let asked = false;
    server.use(
      http.get(BOARDS, ({ response }) => {
        asked = true;
        return response(200).json({ overall: EMPTY, tonight: EMPTY, since: "2026-11-27T21:00:00Z" });
      }),
    );
    const { container } = renderWithProviders(<ChampionsOnScreen campaignId={4} />);

    await expect.poll(() => asked).toBe(true);
    expect(container).toBeEmptyDOMElement();
  });
});
