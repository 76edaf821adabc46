import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, SIGNED_OUT, server } from "@/test/server";
import LandingPage from "./LandingPage";

function serveStories(stories: { id: number; title: string; raised_total: number }[]) {
  server.use(
    http.get("/api/success-stories", ({ response }) =>
      response(200).json(
        stories.map((story) => ({
          ...story,
          organization_name: "ACK St. Peter's Nyeri",
          category_label: "Church",
          goal: 500_000,
          cover_image_url: "",
        })),
      ),
    ),
  );
}

describe("LandingPage's success stories", () => {
  it("shows real featured campaigns with their totals, each linking to its page", async () => {
    serveStories([{ id: 9, title: "Church Roof Repair", raised_total: 240_000 }]);
    renderWithProviders(<LandingPage />, { session: SIGNED_OUT });

    const link = await screen.findByRole("link", { name: "Church Roof Repair" }, { timeout: 5_000 });
    expect(link).toHaveAttribute("href", "/campaign/9");
    expect(screen.getByText("Ksh 240,000 raised")).toBeInTheDocument();
    expect(screen.getByText("ACK St. Peter's Nyeri · Church · goal Ksh 500,000")).toBeInTheDocument();
    expect(screen.queryByText(/St\. Andrew's Church, Nakuru/)).not.toBeInTheDocument();
  });

  it("hides the section while no campaign is featured", async () => {
    let asked = false;
    server.use(
      http.get("/api/success-stories", ({ response }) => {
        asked = true;
        return response(200).json([]);
      }),
    );
    renderWithProviders(<LandingPage />, { session: SIGNED_OUT });

    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByRole("heading", { name: "Success Stories" })).not.toBeInTheDocument();
  });
});
