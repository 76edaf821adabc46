import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { toast } from "@/components/toast";
import type { MpesaConnection } from "@/features/payments/api";
import { waitingChange } from "@/test/changeRequests";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import { MpesaConnectionLoader } from "./MpesaConnectionPage";

vi.mock("@/components/toast", () => ({ toast: vi.fn() }));

const PATH = "/api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa";
const NEW: MpesaConnection = {
  account_id: 4,
  shortcode: "600100",
  connected_at: null,
  has_consumer_key: false,
  has_consumer_secret: false,
  has_passkey: false,
  nominated_number: "",
  c2b_registered_at: null,
  pull_registered_at: null,
  last_tested_at: null,
  last_pulled_at: null,
  confirmation_url: "",
  validation_url: "",
  ratiba_enabled: false,
};
const SAVED: MpesaConnection = {
  ...NEW,
  has_consumer_key: true,
  has_consumer_secret: true,
  has_passkey: true,
  nominated_number: "+254722000111",
  confirmation_url: "https://harambee.example/api/payments/callbacks/c2b/abc/confirmation",
  validation_url: "https://harambee.example/api/payments/callbacks/c2b/abc/validation",
};

function renderPage(connection: MpesaConnection) {
  server.use(http.get(PATH, ({ response }) => response(200).json(connection)));
  return renderWithProviders(<MpesaConnectionLoader account={{ organizationId: 3, accountId: 4 }} />);
}

describe("MpesaConnectionPage", () => {
  it("sends the credentials once and never shows them back", async () => {
    const sent: unknown[] = [];
    server.use(
      http.put(PATH, async ({ request, response }) => {
        sent.push(await request.json());
        return response(200).json(SAVED);
      }),
    );
    const { user } = renderPage(NEW);

    await user.type(await screen.findByLabelText("Consumer key"), "church-key");
    await user.type(screen.getByLabelText("Consumer secret"), "church-secret");
    await user.type(screen.getByLabelText("Lipa Na M-Pesa passkey"), "church-passkey");
    await user.type(
      screen.getByLabelText("Nominated Safaricom number (for Pull Transactions)"),
      "0722000111",
    );
    await user.click(screen.getByRole("button", { name: "Save credentials" }));

    expect(await screen.findByText(SAVED.confirmation_url)).toBeVisible();
    expect(sent).toEqual([
      {
        consumer_key: "church-key",
        consumer_secret: "church-secret",
        passkey: "church-passkey",
        nominated_number: "0722000111",
      },
    ]);
    expect(screen.getByLabelText("Consumer secret")).toHaveValue("");
    expect(screen.getAllByText("Saved. Leave blank to keep it.")).toHaveLength(3);
  });

  it("says which credential M-Pesa refused when the test fails", async () => {
    server.use(
      http.post(`${PATH}/test`, ({ response }) =>
        response(400).json({
          detail: "The passkey does not match 600100.",
          code: "mpesa_wrong_passkey",
          field_errors: {},
        }),
      ),
    );
    const { user } = renderPage(SAVED);

    await user.click(await screen.findByRole("button", { name: "Test" }));

    expect(await screen.findByText("The passkey does not match 600100.")).toBeVisible();
  });

  it("once connected, offers Re-register and Pull now instead of Connect", async () => {
    const connected = {
      ...SAVED,
      connected_at: "2026-11-24T08:00:00Z",
      c2b_registered_at: "2026-11-24T08:00:00Z",
    };
    renderPage({ ...connected, pull_registered_at: connected.c2b_registered_at });

    const actions = await screen.findByRole("button", { name: "Re-register" });

    expect(
      within(actions.parentElement as HTMLElement).getByRole("button", { name: "Pull now" }),
    ).toBeVisible();
    expect(screen.queryByRole("button", { name: "Connect" })).toBeNull();
  });

  it("leaves M-Pesa Ratiba off while turning it on waits for another's approval", async () => {
    const connected = {
      ...SAVED,
      connected_at: "2026-11-24T08:00:00Z",
      c2b_registered_at: "2026-11-24T08:00:00Z",
    };
    const sent: unknown[] = [];
    server.use(
      http.put(`${PATH}/ratiba`, async ({ request, response }) => {
        sent.push(await request.json());
        return response(202).json(
          waitingChange("mpesa.ratiba_set", "Offer M-Pesa Ratiba on paybill 600100."),
        );
      }),
    );
    const { user } = renderPage(connected);

    await user.click(await screen.findByLabelText("Safaricom has enabled M-Pesa Ratiba for this paybill"));

    await vi.waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: "Waiting for approval" })),
    );
    expect(sent).toEqual([{ enabled: true }]);
    expect(screen.getByLabelText("Safaricom has enabled M-Pesa Ratiba for this paybill")).not.toBeChecked();
  });
});
