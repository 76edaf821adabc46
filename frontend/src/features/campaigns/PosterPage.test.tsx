import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Route, Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import PosterPage from "./PosterPage";

function renderPoster(path: string) {
  const { hook } = memoryLocation({ path });
  renderWithProviders(
    <Router hook={hook}>
      <Route path={/^\/campaign\/(?<id>\d+)\/poster\/?$/} component={PosterPage} />
    </Router>,
  );
}

describe("PosterPage", () => {
  afterEach(cleanup);

  it("shows the title, the QR code, the dial code, the campaign number and the campaign's own accounts", async () => {
    server.use(
      http.get("/api/campaigns/{campaign_id}", ({ response }) =>
        response.untyped(
          Response.json({
            id: 14,
            title: "Church Roof Repair",
            payment_instructions: [{ summary: "Paybill 600100, account: your pledge code" }],
          }),
        ),
      ),
    );
    renderPoster("/campaign/14/poster");

    expect(await screen.findByRole("heading", { level: 1, name: "Church Roof Repair" })).toBeInTheDocument();
    expect(
      screen.getByRole("img", { name: "QR code of the link to Church Roof Repair" }),
    ).toBeInTheDocument();
    expect(screen.getByText(/^Dial/)).toHaveTextContent("Dial *384*4242#");
    expect(screen.getByText(/^Campaign number/)).toHaveTextContent("Campaign number 14");
    expect(screen.getByRole("listitem")).toHaveTextContent("Paybill 600100, account: your pledge code");
    expect(screen.queryByText(/174379/)).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Print poster" })).toBeInTheDocument();
  });

  it("is the campaign's not-found page for a campaign nobody may see", async () => {
    server.use(
      http.get("/api/campaigns/{campaign_id}", ({ response }) =>
        response(404).json({ detail: "Campaign not found", code: "not_found", field_errors: {} }),
      ),
    );
    renderPoster("/campaign/99/poster");

    expect(await screen.findByRole("heading", { level: 1, name: "Campaign not found" })).toBeInTheDocument();
  });
});
