import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useSession } from "@/features/accounts/session";
import { api, unwrap } from "@/lib/api/client";

export const HAS_PAID_KEY = ["payments", "has-paid"] as const;

/** Whether the signed-in user is a subscriber: the query's data is `{ has_paid }`. */
export function useHasPaid() {
  const { t } = useLingui();
  const email = useSession().data?.user?.email ?? "";
  return useQuery({
    queryKey: HAS_PAID_KEY,
    queryFn: async () =>
      unwrap(
        await api.GET("/api/organizations", {
          params: { query: { action: "payment-status", user_email: email } },
        }),
        t`Error checking payment. Please try again.`,
      ),
    enabled: email !== "",
    // Asked afresh wherever it is used: a payment may have settled since.
    staleTime: 0,
  });
}
