import { describe, expect, it } from "vitest";
import { paymentView } from "./outcome";

const payment = {
  status: "pending",
  provider: "mpesa_stk",
  amount: 1000,
  receipt_number: null,
  result_desc: "",
} as const;

describe("paymentView", () => {
  it("asks for the M-Pesa PIN with the amount while an STK push is pending", () => {
    expect(paymentView(payment)).toEqual({
      tone: "waiting",
      message: "Check your phone and enter your M-Pesa PIN",
      detail: "Amount: Ksh 1,000",
    });
  });

  it("waits without a PIN prompt for a pending card payment", () => {
    expect(paymentView({ ...payment, provider: "card" })).toEqual({
      tone: "waiting",
      message: "Waiting for your payment...",
    });
  });

  it("names the receipt of a payment received", () => {
    expect(paymentView({ ...payment, status: "succeeded", receipt_number: "HRB-2026-000123" })).toEqual({
      tone: "success",
      message: "Payment received. Receipt HRB-2026-000123",
    });
    expect(paymentView({ ...payment, status: "succeeded" }).message).toBe("Payment received.");
  });

  it("says the payer cancelled on the phone", () => {
    expect(
      paymentView({ ...payment, status: "cancelled", result_desc: "Request cancelled by user" }),
    ).toEqual({
      tone: "problem",
      message: "You cancelled the payment on your phone.",
    });
  });

  it("shows the provider's reason for a failure, or a general one without it", () => {
    const insufficient = "The balance is insufficient for the transaction";
    expect(paymentView({ ...payment, status: "failed", result_desc: insufficient })).toEqual({
      tone: "problem",
      message: insufficient,
    });
    expect(paymentView({ ...payment, status: "failed" }).message).toBe(
      "The payment did not go through. Please try again.",
    );
  });

  it("asks to try again once a request expired", () => {
    expect(paymentView({ ...payment, status: "expired" })).toEqual({
      tone: "problem",
      message: "This payment request has expired. Please try again.",
    });
  });
});
