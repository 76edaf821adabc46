import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { organizationKeys } from "@/features/organizations/api";
import type { OrganizationAccount } from "@/features/payments/api";
import { api, type Schemas, unwrap } from "@/lib/api/client";

export type AirtelConnection = Schemas["AirtelConnectionOut"];
export type AirtelCredentials = Schemas["AirtelConnectionIn"];

// Under the organization's own keys: approving a change there refreshes what this account shows.
export const airtelKeys = {
  connection: (organizationId: number, accountId: number) =>
    [...organizationKeys.accounts(organizationId), accountId, "airtel"] as const,
};

const accountPath = ({ organizationId, accountId }: OrganizationAccount) => ({
  params: { path: { organization_id: organizationId, account_id: accountId } },
});

/** Whether the Airtel Money account's credentials are set (never their values) and its callback URL. */
export function useAirtelConnection(account: OrganizationAccount) {
  return useQuery({
    queryKey: airtelKeys.connection(account.organizationId, account.accountId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/collection-accounts/{account_id}/airtel", {
          ...accountPath(account),
          signal,
        }),
      ),
  });
}

/** Set or replace the Airtel app's credentials (blank keeps the stored one); it may wait for approval. */
export function useSaveAirtelCredentials(account: OrganizationAccount) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AirtelCredentials) =>
      unwrap(
        await api.PUT("/api/orgs/{organization_id}/collection-accounts/{account_id}/airtel", {
          ...accountPath(account),
          body,
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: organizationKeys.one(account.organizationId) }),
  });
}
