import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import type { Leaderboards as Boards } from "./api";
import { Leaderboards } from "./Leaderboards";

const EMPTY = { champions: [], teams: [], raised: 0 };
const AMINA = {
  code: "ABC234",
  name: "Amina Hassan",
  team: "Choir",
  goal: 20_000,
  raised: 12_500,
  pledged: 3_000,
};
const KAMAU = { code: "DEF567", name: "Kamau Njoroge", team: "", goal: 10_000, raised: 4_000, pledged: 0 };
const OVERALL = {
  champions: [AMINA, KAMAU],
  teams: [{ id: 1, name: "Choir", goal: 50_000, raised: 12_500, pledged: 3_000, champions: 1 }],
  raised: 20_000,
};

const boards = (tonight: Boards["tonight"]): Boards => ({
  overall: OVERALL,
  tonight,
  since: "2026-11-27T21:00:00Z",
});

describe("Leaderboards", () => {
  it("opens on tonight's board once someone gave tonight, and shows the overall one on request", async () => {
    const tonight = { champions: [KAMAU], teams: [], raised: 4_000 };
    const { user } = renderWithProviders(<Leaderboards boards={boards(tonight)} />);

    expect(screen.getByRole("button", { name: "Tonight" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("listitem")).toHaveTextContent("1. Kamau NjorogeKsh 4,000");

    await user.click(screen.getByRole("button", { name: "Overall" }));
    const rows = screen.getAllByRole("listitem").map((row) => row.textContent);
    expect(rows).toEqual([
      "1. Amina Hassan · ChoirKsh 12,500Ksh 3,000 pledged",
      "2. Kamau NjorogeKsh 4,000",
      "1. ChoirKsh 12,500Ksh 3,000 pledged",
    ]);
  });

  it("opens on the overall board on a quiet night, and says so when a board is empty", async () => {
    const { user } = renderWithProviders(<Leaderboards boards={boards(EMPTY)} />);

    expect(screen.getByRole("button", { name: "Overall" })).toHaveAttribute("aria-pressed", "true");
    await user.click(screen.getByRole("button", { name: "Tonight" }));
    expect(screen.getByText("No gifts through champions yet.")).toBeVisible();
  });
});
