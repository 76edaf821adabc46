import { useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { toast } from "@/components/toast";
import { campaignKeys } from "@/features/campaigns/api";
import { CheckoutFrame, MpesaWaiting, Outcome } from "@/features/payments/PaymentDialog";
import {
  type Payment,
  type PaymentStatus,
  POLL_FOR_MS,
  usePaymentStatus,
} from "@/features/payments/usePaymentStatus";
import { formatKsh } from "@/lib/money";
import { DialogShell } from "./DialogShell";

type Props = {
  /** The donation's payment as POST /api/donations answered it. */
  started: Payment;
  campaignId: number;
  /** The dialog closed (by the donor, by itself after 30 s, or after the outcome) with the last status. */
  onClose(status: PaymentStatus): void;
};

/**
 * Follows a donation's payment: 'Check your phone' for M-Pesa, the hosted checkout page for a card;
 * polled every 1 s. An M-Pesa prompt closes by itself after 30 s; the server keeps following it.
 */
export default function DonationPaymentDialog({ started, campaignId, onClose }: Props) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const status = usePaymentStatus(started.reference);
  const payment = status.data ?? started;
  const current = payment.status;
  const card = payment.provider === "card";

  // The latest values for the timer below, which must not restart when they change.
  const latest = useRef({ current, onClose });
  latest.current = { current, onClose };

  useEffect(() => {
    if (current !== "succeeded") return;
    // Raised and donors grew on the server.
    void queryClient.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) });
    void queryClient.invalidateQueries({ queryKey: campaignKeys.lists });
  }, [current, campaignId, queryClient]);

  useEffect(() => {
    if (card) return;
    const timer = setTimeout(() => {
      if (latest.current.current !== "pending") return;
      toast({
        title: t`We are still waiting for M-Pesa`,
        description: t`Your payment keeps being tracked and counts as soon as M-Pesa confirms it.`,
      });
      latest.current.onClose("pending");
    }, POLL_FOR_MS);
    return () => clearTimeout(timer);
  }, [card, t]);

  const close = () => onClose(current);
  let body: ReactNode;
  if (current !== "pending") body = <Outcome payment={payment} onDone={close} onRetry={close} />;
  else if (card && payment.checkout_url) {
    body = <CheckoutFrame url={payment.checkout_url} onLoad={() => void status.refetch()} onBack={close} />;
  } else body = <MpesaWaiting payment={payment} />;

  return (
    <DialogShell title={t`Your donation of ${formatKsh(payment.amount)}`} onClose={close}>
      {body}
    </DialogShell>
  );
}
