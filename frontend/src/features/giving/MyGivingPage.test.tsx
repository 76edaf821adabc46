import { screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import type { MyGiving } from "./api";
import MyGivingPage from "./MyGivingPage";

const giving: MyGiving = {
  verified_phone: "+254712345678",
  years: [2026, 2025],
  pledges: [
    {
      code: "A2QSH9R",
      campaign_id: 3,
      campaign_title: "Church roof",
      organization_name: "PCEA Kasarani",
      channel: "ussd",
      amount: 20_000,
      paid_amount: 8_000,
      remaining_amount: 12_000,
      due_now: 2_000,
      next_instalment: { due_on: "2026-12-01", amount: 2_000 },
      pays_automatically: false,
      status: "partly_paid",
      is_anonymous: false,
      claimable: true,
      pay_url: "/pledges/A2QSH9R",
      created_at: "2026-03-01T10:00:00Z",
    },
  ],
  gifts: [
    {
      campaign_id: 4,
      campaign_title: "School library",
      organization_name: "Upendo School",
      amount: 700,
      method: "mpesa_stk",
      mpesa_receipt: "RKT7JK8LM9",
      receipt_number: "HRB-1",
      is_anonymous: true,
      given_at: "2026-05-09T10:00:00Z",
    },
  ],
};

describe("MyGivingPage", () => {
  it("shows each pledge with what is left and a way to pay, each gift with its code, and the statement's year", async () => {
    server.use(http.get("/api/my-giving", () => HttpResponse.json(giving)));
    renderWithProviders(<MyGivingPage />);

    const pledges = await screen.findByRole("region", { name: "Pledges" });
    expect(within(pledges).getByText("Pledged Ksh 20,000, paid Ksh 8,000, left Ksh 12,000")).toBeVisible();
    expect(within(pledges).getByRole("link", { name: /Pay Ksh 2,000/ })).toHaveAttribute(
      "href",
      "/pledges/A2QSH9R",
    );
    const gifts = screen.getByRole("region", { name: "Gifts" });
    expect(within(gifts).getByText(/RKT7JK8LM9/)).toBeVisible();
    expect(within(gifts).getByText(/anonymous to the public/)).toBeVisible();
    expect(screen.getByRole("link", { name: "Download the statement" })).toHaveAttribute(
      "href",
      "/api/my-giving/statement.pdf?year=2026&language=en",
    );
    expect(screen.queryByRole("button", { name: "Send code" })).toBeNull();
  }, 30_000);
});
