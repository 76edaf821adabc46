import { msg } from "@lingui/core/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { toast } from "@/components/toast";
import { i18n } from "@/lib/i18n";
import { type Payment, paymentOptions } from "./api";

// The spec's popup timings: asked every 1 s, given up after 30 s.
export const POLL_EVERY_MS = 1_000;
export const WAIT_FOR_MS = 30_000;

/**
 * Follows the payment `reference` (null: none started yet), showing `started` until the first answer:
 * asked every second while pending, for 30 s at most. `gaveUp` says it is still pending after those
 * 30 s; the server keeps following it, and `refetch` asks once more.
 */
export function useMpesaWait(reference: string | null, started?: Payment | null) {
  // The reference whose 30 s are up, so a new payment starts with its own 30 s.
  const [expired, setExpired] = useState<string | null>(null);
  useEffect(() => {
    if (reference === null) return;
    const timer = setTimeout(() => setExpired(reference), WAIT_FOR_MS);
    return () => clearTimeout(timer);
  }, [reference]);
  const timeUp = reference !== null && expired === reference;

  const query = useQuery({
    ...paymentOptions(reference),
    refetchInterval: (query) => (query.state.data?.status === "pending" && !timeUp ? POLL_EVERY_MS : false),
  });
  const payment = query.data ?? started ?? undefined;
  return { payment, gaveUp: timeUp && payment?.status === "pending", refetch: query.refetch };
}

/** What a payment dialog says as it closes on a payment still pending after the 30 s. */
export function toastStillWaiting() {
  toast({
    title: i18n._(msg`We are still waiting for M-Pesa`),
    description: i18n._(msg`Your payment keeps being tracked and counts as soon as M-Pesa confirms it.`),
  });
}
