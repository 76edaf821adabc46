import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import { AutomaticPayment } from "./AutomaticPayment";
import type { PledgeReceipt } from "./api";

type Plan = NonNullable<PledgeReceipt["plan"]>;

const PLAN: Plan = {
  instalment: 5000,
  frequency: "monthly",
  first_due_on: "2027-01-05",
  instalment_count: 12,
  last_due_on: "2027-12-05",
  next_due_on: "2027-01-05",
  next_due_amount: 5000,
  standing: "on_track",
  behind_count: 0,
  behind_amount: 0,
  standing_order: null,
};

const receipt = (plan: Plan | null, available: boolean) =>
  ({
    code: "ABC2345",
    phone_hint: "+2547•••••222",
    plan,
    standing_order_available: available,
  }) as PledgeReceipt;

const order = (status: "pending" | "active" | "failed", message = "") => ({
  status,
  name: "Pledge ABC2345",
  amount: 5000,
  start_on: "2027-01-05",
  end_on: "2027-12-05",
  message,
});

describe("AutomaticPayment", () => {
  it("is offered where the server offers it, and sends the standing order to the pledge's phone", async () => {
    let sent = false;
    server.use(
      http.post("/api/pledges/{code}/standing-order", ({ response }) => {
        sent = true;
        return response(201).json({ ...PLAN, standing_order: order("pending") });
      }),
      http.get("/api/pledges/{code}", ({ response }) =>
        response(200).json(receipt({ ...PLAN, standing_order: order("pending") }, false)),
      ),
    );
    const { user } = renderWithProviders(<AutomaticPayment receipt={receipt(PLAN, true)} />);

    expect(screen.getByText(/Approve once with your M-Pesa PIN on \+2547•••••222/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Pay automatically with M-Pesa" }));

    expect(sent).toBe(true);
  });

  it("is not shown where the server does not offer it (a till, unequal instalments, no Ratiba)", () => {
    const { container } = renderWithProviders(<AutomaticPayment receipt={receipt(PLAN, false)} />);
    expect(container).toBeEmptyDOMElement();
  });

  it("says how to stop an active standing order on the phone", () => {
    renderWithProviders(
      <AutomaticPayment receipt={receipt({ ...PLAN, standing_order: order("active") }, false)} />,
    );

    expect(screen.getByRole("status")).toHaveTextContent("Paid automatically with M-Pesa: Ksh 5,000 a month");
    expect(screen.getByRole("status")).toHaveTextContent("dial *334# and open M-PESA Ratiba");
    expect(screen.getByRole("status")).toHaveTextContent('"Pledge ABC2345"');
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("says why a declined order was not made, that the plan is paid by hand, and offers it again", () => {
    const declined = {
      ...PLAN,
      standing_order: order("failed", "The standing order was declined on the phone."),
    };
    renderWithProviders(<AutomaticPayment receipt={receipt(declined, true)} />);

    expect(screen.getByRole("status")).toHaveTextContent(
      "The standing order was declined on the phone. No standing order was made: please pay each instalment yourself.",
    );
    expect(screen.getByRole("button", { name: "Pay automatically with M-Pesa" })).toBeEnabled();
  });
});
