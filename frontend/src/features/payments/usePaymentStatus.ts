import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, type Schemas, unwrap } from "@/lib/api/client";

export type PaymentStatus = Schemas["Status"];
export type Payment = Schemas["PaymentOut"];

// The spec's popup timings: polled every 1 s, given up after 30 s.
export const POLL_EVERY_MS = 1_000;
export const POLL_FOR_MS = 30_000;

export const paymentKey = (reference: string | null) => ["payments", "detail", reference] as const;

/** The payment `reference`, asked again every second while it is pending, for at most 30 s. */
export function usePaymentStatus(reference: string | null, options?: { enabled?: boolean }) {
  const { t } = useLingui();
  // When polling of this reference began: the 30 s count from there.
  const pollingSince = useRef(0);
  useEffect(() => {
    pollingSince.current = reference ? Date.now() : 0;
  }, [reference]);

  return useQuery({
    queryKey: paymentKey(reference),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/payments/{reference}", { params: { path: { reference: reference ?? "" } } }),
        t`An unexpected error occurred. Please try again.`,
      ),
    enabled: reference !== null && (options?.enabled ?? true),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.status === "pending" && Date.now() - pollingSince.current < POLL_FOR_MS
        ? POLL_EVERY_MS
        : false,
  });
}
