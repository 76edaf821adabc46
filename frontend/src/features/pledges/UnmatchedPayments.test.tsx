import { screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import type { UnmatchedPayment } from "./managementApi";
import { MayAct } from "./mayAct";
import { UnmatchedPayments } from "./UnmatchedPayments";

const unmatched = (name: string): UnmatchedPayment => ({
  reference: "pay-1",
  amount: 1500,
  provider: "mpesa_c2b",
  account_reference: "A2QSH9P",
  mpesa_receipt: "SGL31HA2UV",
  payer_name: "",
  received_at: null,
  suggested_pledge: { id: 9, code: "A2QSH9R", name, amount: 5000, remaining_amount: 3500 },
});

function renderWith(payment: UnmatchedPayment) {
  server.use(http.get("/api/campaigns/{campaign_id}/unmatched-payments", () => HttpResponse.json([payment])));
  return renderWithProviders(
    <MayAct.Provider value>
      <UnmatchedPayments campaignId={3} />
    </MayAct.Provider>,
  );
}

describe("UnmatchedPayments", () => {
  it("offers the likely pledge by its giver's name, code and what is left to pay", async () => {
    renderWith(unmatched("Mercy Wambui"));
    expect(
      await screen.findByRole("button", { name: "Assign to Mercy Wambui's pledge A2QSH9R (Ksh 3,500 left)" }),
    ).toBeEnabled();
  });

  it("names a pledge without a giver's name as the pledge, never as an empty name", async () => {
    renderWith(unmatched(""));
    expect(
      await screen.findByRole("button", { name: "Assign to pledge A2QSH9R (Ksh 3,500 left)" }),
    ).toBeEnabled();
  });
});
