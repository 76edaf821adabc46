import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { formatCalendarDate } from "@/features/campaigns/links";
import type { Schemas } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import { kenyaDate } from "@/lib/kenyaTime";
import { formatKsh } from "@/lib/money";

/** A moment (ISO date-time) as a day in the reader's language, in Kenya's time: 'Mar 3, 2026', '3 Mac
 * 2026'. The same day in the server's render of a page and in any browser, wherever it is. */
export function formatDay(isoDateTime: string, locale: string): string {
  return formatCalendarDate(kenyaDate(isoDateTime), locale);
}

export type PledgeStatus = Schemas["PledgeStatus"];

const STATUS_LABELS: Record<PledgeStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  partly_paid: msg`Partly paid`,
  confirmed: msg`Confirmed`,
};

export function pledgeStatusLabel(status: PledgeStatus): string {
  return i18n._(STATUS_LABELS[status]);
}

type Receipt = Pick<
  Schemas["PledgeReceiptOut"],
  "code" | "amount" | "campaign_title" | "remaining_amount" | "payment_instructions"
>;

/** The pledge and every way to pay it as plain text, for the pledger to keep (copied, or pasted into a chat). */
export function howToPayText(receipt: Receipt): string {
  const amount = formatKsh(receipt.amount);
  const remaining = formatKsh(receipt.remaining_amount);
  const blocks = [
    [
      i18n._(msg`Pledge ${receipt.code} to ${receipt.campaign_title}: ${amount}`),
      i18n._(msg`Still to pay: ${remaining}`),
    ],
    ...receipt.payment_instructions.map((instruction) => [
      instruction.label,
      ...instruction.lines.map((line) => `${line.label}: ${line.value}`),
      instruction.note,
    ]),
  ];
  return blocks.map((lines) => lines.filter(Boolean).join("\n")).join("\n\n");
}
