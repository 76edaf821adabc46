import { msg } from "@lingui/core/macro";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import { useSession } from "@/lib/session";

export type PaymentStatus = Schemas["Status"];
export type Payment = Schemas["PaymentOut"];
/** What a fee pays for: a campaign's activation or the grant-funding subscription. */
export type FeePurpose = "campaign_activation" | "subscription";

export const paymentKeys = {
  all: ["payments"] as const,
  detail: (reference: string | null) => ["payments", "detail", reference] as const,
  hasPaid: ["payments", "has-paid"] as const,
  fees: ["payments", "fees"] as const,
};

/** The platform's prices (whole KES), stated before any fee's PIN prompt and on How it works. */
export function useFees() {
  return useQuery({
    queryKey: paymentKeys.fees,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/fees", { signal })),
    staleTime: 60 * 60_000,
  });
}

/** The payment `reference` as the server follows it (see useMpesaWait for the polling). */
export const paymentOptions = (reference: string | null) =>
  queryOptions({
    queryKey: paymentKeys.detail(reference),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/payments/{reference}", { params: { path: { reference: reference ?? "" } } }),
      ),
    enabled: reference !== null,
    staleTime: 0,
  });

/** Whether the signed-in user is a subscriber: the query's data is `{ has_paid }`. */
export function useHasPaid() {
  const email = useSession().data?.user?.email ?? "";
  return useQuery({
    queryKey: paymentKeys.hasPaid,
    queryFn: async () =>
      unwrap(
        await api.GET("/api/organizations", {
          params: { query: { action: "payment-status", user_email: email } },
        }),
        i18n._(msg`Error checking payment. Please try again.`),
      ),
    enabled: email !== "",
    // Asked afresh wherever it is used: a payment may have settled since.
    staleTime: 0,
  });
}

type FeeTarget = { purpose: FeePurpose; campaignId?: number };

/** A fee by M-Pesa: the server sends the PIN prompt to `phone`; the answer is the pending payment. */
export function useStartFeeStkPush({ purpose, campaignId }: FeeTarget) {
  return useMutation({
    mutationFn: async ({ phone, key }: { phone: string; key: string }) =>
      unwrap(
        await api.POST("/api/payments/stk-push", {
          body: { purpose, campaign_id: campaignId ?? null, phone, idempotency_key: key },
        }),
      ),
  });
}

/** A fee by card: the answer carries the hosted checkout page, which comes back to `returnPath`. */
export function useStartFeeCheckout({ purpose, campaignId }: FeeTarget) {
  return useMutation({
    mutationFn: async ({ key, returnPath }: { key: string; returnPath: string }) =>
      unwrap(
        await api.POST("/api/payments/checkout", {
          body: { purpose, campaign_id: campaignId ?? null, idempotency_key: key, return_path: returnPath },
        }),
      ),
  });
}
