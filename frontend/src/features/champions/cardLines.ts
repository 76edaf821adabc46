import { parseWholeKes } from "@/features/pledges/rules";
import type { CardReturnIn } from "./api";

/** One line written on a harambee card, as the usher types it. */
export type CardLine = {
  kind: "pledge" | "cash" | "mpesa";
  amount: string;
  name: string;
  phone: string;
  receipt: string;
};

export const emptyLine = (): CardLine => ({ kind: "cash", amount: "", name: "", phone: "", receipt: "" });

/** A line the usher left untouched is not sent. */
const isBlank = (line: CardLine) => !line.amount.trim() && !line.name.trim() && !line.phone.trim();

/** The card's figures and lines as the API takes them, or null while an amount is not whole KES. */
export function cardReturnRequest(cash: string, mpesa: string, lines: CardLine[]): CardReturnIn | null {
  const cashTotal = cash.trim() ? parseWholeKes(cash) : 0;
  const mpesaReported = mpesa.trim() ? parseWholeKes(mpesa) : 0;
  const gifts = lines.filter((line) => !isBlank(line));
  const amounts = gifts.map((line) => parseWholeKes(line.amount));
  if (cashTotal === null || mpesaReported === null || amounts.some((amount) => amount === null)) return null;
  return {
    cash_total: cashTotal,
    mpesa_reported: mpesaReported,
    gifts: gifts.map((line, index) => ({
      kind: line.kind,
      amount: amounts[index] as number,
      name: line.name.trim(),
      phone: line.phone.trim(),
      mpesa_receipt: line.kind === "mpesa" ? line.receipt.trim().toUpperCase() : "",
    })),
  };
}
