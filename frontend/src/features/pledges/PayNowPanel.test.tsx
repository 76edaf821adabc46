import { screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import type { Payment } from "@/features/payments/api";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import { type PayNowFormPage, type PledgeReceipt, pledgeKeys } from "./api";
import { PayNowPanel } from "./PayNowPanel";

// Ksh 12,000 at Ksh 4,000 a month, nothing paid yet: the server says Ksh 4,000 is due.
const ON_PLAN = {
  id: 3,
  code: "ABC2345",
  name: "Njeri",
  amount: 12_000,
  is_anonymous: false,
  status: "pending",
  paid_amount: 0,
  remaining_amount: 12_000,
  amount_due: 4_000,
  overpaid_amount: 0,
  campaign_id: 7,
  campaign_title: "Church Roof",
  deadline_date: "2027-06-30",
  payment_instructions: [],
  stk_push_available: true,
  airtel_push_available: false,
  airtel_default: false,
  phone_hint: "+2547•••••678",
  created_at: "2026-11-01T10:00:00Z",
  plan: null,
  plan_latest_end: "2027-06-30",
  standing_order_available: false,
} as PledgeReceipt;

const PENDING: Payment = {
  reference: "HRB1",
  status: "pending",
  amount: 2_500,
  provider: "mpesa_stk",
  purpose: "pledge_payment",
  campaign_id: 7,
  result_desc: "",
  receipt_number: null,
  checkout_url: null,
  created_at: "2026-11-27T10:00:00Z",
  settled_at: null,
};

function promptsSent() {
  const sent: { amount: number; phone: string }[] = [];
  server.use(
    http.post("/api/pledges/{code}/stk-push", async ({ request }) => {
      sent.push((await request.json()) as { amount: number; phone: string });
      return HttpResponse.json(PENDING, { status: 201 });
    }),
    http.get("/api/payments/{reference}", ({ response }) => response(200).json(PENDING)),
  );
  return sent;
}

describe("PayNowPanel", () => {
  it("offers the amount the server says is due and says how much is left", async () => {
    renderWithProviders(<PayNowPanel receipt={ON_PLAN} heading="h2" />);

    expect(await screen.findByLabelText("Amount to pay (Ksh)")).toHaveValue("4000");
    expect(
      screen.getByText(/Due now: Ksh 4,000\. You may pay another amount, up to the Ksh 12,000 left\./),
    ).toBeVisible();
  });

  it("asks M-Pesa for another amount the pledger types", async () => {
    const sent = promptsSent();
    const { user } = renderWithProviders(<PayNowPanel receipt={ON_PLAN} heading="h2" />);

    const amount = await screen.findByLabelText("Amount to pay (Ksh)");
    await user.clear(amount);
    await user.type(amount, "2,500");
    await user.click(screen.getByRole("button", { name: "Pay now with M-Pesa" }));

    await expect.poll(() => sent).toEqual([expect.objectContaining({ amount: 2_500, phone: "" })]);
  });

  it("refuses more than what is left before asking M-Pesa", async () => {
    const sent = promptsSent();
    const { user } = renderWithProviders(<PayNowPanel receipt={ON_PLAN} heading="h2" />);

    const amount = await screen.findByLabelText("Amount to pay (Ksh)");
    await user.clear(amount);
    await user.type(amount, "12001");
    await user.click(screen.getByRole("button", { name: "Pay now with M-Pesa" }));

    expect(await screen.findByText("Please enter an amount from Ksh 1 to Ksh 12,000.")).toBeVisible();
    expect(sent).toEqual([]);
  });

  it("lets a pledger without a plan pay part of what is left", async () => {
    const sent = promptsSent();
    const withoutPlan = { ...ON_PLAN, amount_due: 12_000 };
    const { user } = renderWithProviders(<PayNowPanel receipt={withoutPlan} heading="h2" />);

    expect(screen.getByText(/You may pay all of the Ksh 12,000 left or part of it\./)).toBeVisible();
    const amount = screen.getByLabelText("Amount to pay (Ksh)");
    expect(amount).toHaveValue("12000");
    await user.clear(amount);
    await user.type(amount, "3000");
    await user.click(screen.getByRole("button", { name: "Pay now with M-Pesa" }));

    await expect.poll(() => sent).toEqual([expect.objectContaining({ amount: 3_000 })]);
  });

  it("is a form that posts without JavaScript, and shows the server's answer to it", () => {
    const refused: PayNowFormPage = {
      csrf_token: "token-of-this-visitor",
      key: "key-of-this-form",
      amount: "20000",
      error: {
        detail: "Please correct the errors below",
        code: "validation_error",
        field_errors: { amount: "Please enter an amount from Ksh 1 to Ksh 12,000." },
      },
      sent: false,
    };
    const { container } = renderWithProviders(<PayNowPanel receipt={ON_PLAN} heading="h2" />, {
      queries: [[pledgeKeys.payNow(ON_PLAN.code), refused]],
    });

    const form = container.querySelector("form");
    expect(form).toHaveAttribute("action", "/pledges/ABC2345");
    expect(form).toHaveAttribute("method", "post");
    expect(form).toHaveFormValues({
      csrfmiddlewaretoken: "token-of-this-visitor",
      key: "key-of-this-form",
      amount: "20000",
    });
    expect(screen.getByText("Please enter an amount from Ksh 1 to Ksh 12,000.")).toBeVisible();
  });

  it("says the prompt is on its way once the server sent it", () => {
    const sent: PayNowFormPage = { csrf_token: "t", key: "k", amount: "2500", error: null, sent: true };
    renderWithProviders(<PayNowPanel receipt={ON_PLAN} heading="h2" />, {
      queries: [[pledgeKeys.payNow(ON_PLAN.code), sent]],
    });

    expect(screen.getByRole("status")).toHaveTextContent(/A prompt for your M-Pesa PIN is on its way/);
  });

  it("offers Airtel Money where the campaign takes it, chosen by default for an Airtel number", async () => {
    const airtelSent: { amount: number }[] = [];
    server.use(
      http.post("/api/pledges/{code}/airtel-push", async ({ request }) => {
        airtelSent.push((await request.json()) as { amount: number });
        return HttpResponse.json({ ...PENDING, provider: "airtel" }, { status: 201 });
      }),
      http.get("/api/payments/{reference}", ({ response }) => response(200).json(PENDING)),
    );
    const onAirtel = { ...ON_PLAN, airtel_push_available: true, airtel_default: true };
    const { user } = renderWithProviders(<PayNowPanel receipt={onAirtel} heading="h2" />);

    expect(await screen.findByRole("radio", { name: "Airtel Money" })).toBeChecked();
    expect(screen.getByText(/A prompt for your Airtel Money PIN comes to/)).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Pay now with Airtel Money" }));

    await expect.poll(() => airtelSent).toEqual([expect.objectContaining({ amount: 4_000 })]);
  });

  it("keeps M-Pesa the default for other numbers, Airtel Money one tap away", async () => {
    const sent = promptsSent();
    const both = { ...ON_PLAN, airtel_push_available: true, airtel_default: false };
    const { user } = renderWithProviders(<PayNowPanel receipt={both} heading="h2" />);

    expect(await screen.findByRole("radio", { name: "M-Pesa" })).toBeChecked();
    await user.click(screen.getByRole("radio", { name: "Airtel Money" }));
    expect(screen.getByRole("button", { name: "Pay now with Airtel Money" })).toBeVisible();
    await user.click(screen.getByRole("radio", { name: "M-Pesa" }));
    await user.click(screen.getByRole("button", { name: "Pay now with M-Pesa" }));

    await expect.poll(() => sent).toEqual([expect.objectContaining({ amount: 4_000 })]);
  });
});
