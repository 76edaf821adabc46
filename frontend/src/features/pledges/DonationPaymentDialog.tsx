import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { type PaymentInstruction, PaymentInstructionCard } from "@/components/PaymentInstructionCard";
import { campaignKeys } from "@/features/campaigns/api";
import type { Payment, PaymentStatus } from "@/features/payments/api";
import { CheckoutFrame, MpesaWaiting, PaymentOutcome } from "@/features/payments/PaymentSteps";
import { toastStillWaiting, useMpesaWait } from "@/features/payments/useMpesaWait";
import { formatKsh } from "@/lib/money";
import { DialogShell } from "./DialogShell";

type Props = {
  /** The donation's payment as POST /api/donations answered it. */
  started: Payment;
  /** How to pay it where the campaign's accounts take no PIN prompts (provider mpesa_c2b). */
  instructions: PaymentInstruction[];
  campaignId: number;
  /** The dialog closed (by the donor, by itself after 30 s, or after the outcome) with the last status. */
  onClose(status: PaymentStatus): void;
};

/**
 * Follows a donation's payment: 'Check your phone' for an M-Pesa prompt, how to pay with the donation's
 * reference where the campaign takes no prompts, the hosted checkout page for a card; polled every 1 s.
 * M-Pesa closes by itself after 30 s; the server keeps following it (the gift counts once it is matched).
 */
export default function DonationPaymentDialog({ started, instructions, campaignId, onClose }: Props) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const wait = useMpesaWait(started.reference, started);
  const payment = wait.payment ?? started;
  const current = payment.status;
  const card = payment.provider === "card";

  // The latest callback for the effect below, which must not run again when it changes.
  const latest = useRef(onClose);
  latest.current = onClose;

  useEffect(() => {
    if (current !== "succeeded") return;
    // Raised and donors grew on the server.
    void queryClient.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) });
    void queryClient.invalidateQueries({ queryKey: campaignKeys.lists });
  }, [current, campaignId, queryClient]);

  const mpesaGaveUp = !card && wait.gaveUp;
  useEffect(() => {
    if (!mpesaGaveUp) return;
    toastStillWaiting();
    latest.current("pending");
  }, [mpesaGaveUp]);

  const close = () => onClose(current);
  let body: ReactNode;
  if (current !== "pending") body = <PaymentOutcome payment={payment} onDone={close} onRetry={close} />;
  else if (card && payment.checkout_url) {
    body = <CheckoutFrame url={payment.checkout_url} onLoad={() => void wait.refetch()} onBack={close} />;
  } else if (payment.provider === "mpesa_c2b") {
    body = <PayAsInstructed reference={payment.reference} instructions={instructions} />;
  } else body = <MpesaWaiting payment={payment} />;

  return (
    <DialogShell title={t`Your donation of ${formatKsh(payment.amount)}`} onClose={close}>
      {body}
    </DialogShell>
  );
}

function PayAsInstructed({
  reference,
  instructions,
}: {
  reference: string;
  instructions: PaymentInstruction[];
}) {
  return (
    <div className="space-y-3">
      <p className="text-slate-700">
        <Trans>
          Pay from your phone as shown below, with <strong className="font-mono">{reference}</strong> as the
          account number or reference. Your gift counts once the payment reaches the church.
        </Trans>
      </p>
      <ul className="space-y-3">
        {instructions.map((instruction, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two accounts can read the same; the order is fixed
          <PaymentInstructionCard key={index} instruction={instruction} />
        ))}
      </ul>
    </div>
  );
}
