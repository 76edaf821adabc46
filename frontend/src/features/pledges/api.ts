import { msg } from "@lingui/core/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useSession } from "@/features/accounts/session";
import { api, type Schemas, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

export type PledgeReceipt = Schemas["PledgeReceiptOut"];
export type PaymentInstruction = Schemas["PaymentInstructionOut"];
export type PublicPledge = Schemas["PledgeOut"];
export type PublicDonation = Schemas["DonationOut"];

export const pledgeKeys = {
  all: ["pledges"] as const,
  receipt: (code: string) => ["pledges", "receipt", code] as const,
  ministry: ["pledges", "ministry-campaign"] as const,
};

export const unexpected = () => i18n._(msg`An unexpected error occurred. Please try again.`);

/** A pledge as its pledger sees it, starting from the answer to the pledge; asked again on return to the tab. */
export function usePledgeReceipt(initial: PledgeReceipt) {
  return useQuery({
    queryKey: pledgeKeys.receipt(initial.code),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/pledges/{code}", { params: { path: { code: initial.code } }, signal }),
        unexpected(),
      ),
    initialData: initial,
    initialDataUpdatedAt: Date.now,
    // A pledger often pays in the M-Pesa app and comes back: the tab's focus then refreshes what is paid.
    staleTime: 5_000,
  });
}

/** The campaign the ministry page's Donate and Pledge buttons lead to (chosen in the server's settings). */
export function useMinistryCampaignId() {
  return useQuery({
    queryKey: pledgeKeys.ministry,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/api/ministry-campaign", { signal }), unexpected()).campaign_id,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Resolves once the session (and with it the CSRF token every POST needs) has arrived. */
export function useSessionReady() {
  const session = useSession();
  return async () => {
    if (!session.data) await session.refetch();
  };
}

/** 'Pay now with M-Pesa': a PIN prompt for the rest of the pledge, to `phone` or (empty) the pledge's own. */
export function useStartPledgeStkPush(code: string) {
  return useMutation({
    mutationFn: async ({ phone, key }: { phone: string; key: string }) =>
      unwrap(
        await api.POST("/api/pledges/{code}/stk-push", {
          params: { path: { code } },
          body: { phone, idempotency_key: key },
        }),
        unexpected(),
      ),
  });
}
