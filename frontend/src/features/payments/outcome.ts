import { msg } from "@lingui/core/macro";
import { i18n } from "@/lib/i18n";
import { formatKsh } from "@/lib/money";
import type { Payment } from "./api";

export type PaymentView = {
  /** waiting: still pending; success: paid; problem: ended without the money. */
  tone: "waiting" | "success" | "problem";
  message: string;
  detail?: string;
};

/** What the payment dialog says about a payment in each state. */
export function paymentView(
  payment: Pick<Payment, "status" | "provider" | "amount" | "receipt_number" | "result_desc">,
): PaymentView {
  switch (payment.status) {
    case "pending":
      if (payment.provider === "airtel")
        return {
          tone: "waiting",
          message: i18n._(msg`Check your phone and enter your Airtel Money PIN`),
          detail: i18n._(msg`Amount: ${formatKsh(payment.amount)}`),
        };
      return payment.provider === "mpesa_stk"
        ? {
            tone: "waiting",
            message: i18n._(msg`Check your phone and enter your M-Pesa PIN`),
            detail: i18n._(msg`Amount: ${formatKsh(payment.amount)}`),
          }
        : { tone: "waiting", message: i18n._(msg`Waiting for your payment...`) };
    case "succeeded":
      return {
        tone: "success",
        message: payment.receipt_number
          ? i18n._(msg`Payment received. Receipt ${payment.receipt_number}`)
          : i18n._(msg`Payment received.`),
      };
    case "cancelled":
      return { tone: "problem", message: i18n._(msg`You cancelled the payment on your phone.`) };
    case "expired":
      return { tone: "problem", message: i18n._(msg`This payment request has expired. Please try again.`) };
    case "failed":
      // The provider's own words, e.g. 'The balance is insufficient for the transaction'.
      return {
        tone: "problem",
        message: payment.result_desc || i18n._(msg`The payment did not go through. Please try again.`),
      };
  }
}
