import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import type { EmbedOrigin } from "./api";
import { EmbedOrigins } from "./EmbedOrigins";

vi.mock("@/components/toast", () => ({ toast: vi.fn() }));

const ORIGINS = "/api/orgs/{organization_id}/embed-origins";
const registered: EmbedOrigin = {
  id: 1,
  origin: "https://www.stpauls.example",
  created_at: "2026-03-01T10:00:00Z",
};

describe("EmbedOrigins", () => {
  it("lets an owner add a website and shows the server's message for one refused", async () => {
    const sent: unknown[] = [];
    server.use(
      http.get(ORIGINS, ({ response }) => response(200).json([registered])),
      http.post(ORIGINS, async ({ request, response }) => {
        sent.push(await request.json());
        return response(422).json({
          detail: "Please correct the errors below",
          code: "validation_error",
          field_errors: {
            origin: "Only secure websites (https://) can show the campaign, except http://localhost.",
          },
        });
      }),
    );
    const { user } = renderWithProviders(<EmbedOrigins organizationId={3} canManage />);

    expect(await screen.findByText("https://www.stpauls.example")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Website address"), "http://stpauls.example");
    await user.click(screen.getByRole("button", { name: "Add website" }));

    expect(await screen.findByText(/Only secure websites/)).toBeInTheDocument();
    expect(screen.getByLabelText("Website address")).toHaveAttribute("aria-invalid", "true");
    expect(sent).toEqual([{ origin: "http://stpauls.example" }]);
  });

  it("shows other members the list without the form", async () => {
    server.use(http.get(ORIGINS, ({ response }) => response(200).json([registered])));
    renderWithProviders(<EmbedOrigins organizationId={3} canManage={false} />);

    expect(await screen.findByText("https://www.stpauls.example")).toBeInTheDocument();
    expect(screen.queryByLabelText("Website address")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Remove/ })).not.toBeInTheDocument();
  });
});
