import { msg } from "@lingui/core/macro";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type ChangeRequest,
  collectionAccountsOptions,
  isWaiting,
  organizationKeys,
} from "@/features/organizations/api";
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
  // Under the organization's own keys: approving a change there refreshes what this account shows.
  mpesaConnection: (organizationId: number, accountId: number) =>
    [...organizationKeys.accounts(organizationId), accountId, "mpesa"] as const,
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

// An organization's own M-Pesa (its Daraja app on a paybill or till collection account): owners and treasurers.

export type MpesaConnection = Schemas["MpesaConnectionOut"];
export type MpesaCredentials = Schemas["MpesaConnectionIn"];

/** One of an organization's collection accounts, as the routes /orgs/{id}/collection-accounts/{account}/… name it. */
export type OrganizationAccount = { organizationId: number; accountId: number };

const accountPath = ({ organizationId, accountId }: OrganizationAccount) => ({
  params: { path: { organization_id: organizationId, account_id: accountId } },
});

export function useMpesaConnection(account: OrganizationAccount) {
  return useQuery({
    queryKey: paymentKeys.mpesaConnection(account.organizationId, account.accountId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa", {
          ...accountPath(account),
          signal,
        }),
      ),
  });
}

/** Every action answers with the connection as it now is (the page shows it at once), or, for
 * credentials, Connect and Ratiba, with the change waiting for a second owner's or treasurer's
 * approval (the two-person rule: 202), which joins the organization's list of waiting changes. */
function useMpesaAction<Body, Answer extends MpesaConnection | ChangeRequest>(
  account: OrganizationAccount,
  send: (body: Body) => Promise<Answer>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      if (isWaiting(answer)) {
        void queryClient.invalidateQueries({ queryKey: organizationKeys.approvals(account.organizationId) });
        return;
      }
      queryClient.setQueryData(
        paymentKeys.mpesaConnection(account.organizationId, account.accountId),
        answer,
      );
    },
  });
}

/** Sets or replaces the credentials; blank fields keep the stored ones (which are never sent back). */
export function useSaveMpesaCredentials(account: OrganizationAccount) {
  return useMpesaAction(account, async (body: MpesaCredentials) =>
    unwrap(
      await api.PUT("/api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa", {
        ...accountPath(account),
        body,
      }),
    ),
  );
}

/** 'Test': a token and a check of the shortcode and passkey; registers nothing. */
export function useTestMpesa(account: OrganizationAccount) {
  return useMpesaAction(account, async (_: undefined) =>
    unwrap(
      await api.POST(
        "/api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/test",
        accountPath(account),
      ),
    ),
  );
}

/** 'Connect' (once) or 'Re-register': the account's URLs and Pull Transactions, registered with Daraja. */
export function useConnectMpesa(account: OrganizationAccount) {
  return useMpesaAction(account, async (reregister: boolean) =>
    unwrap(
      await api.POST("/api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/connect", {
        ...accountPath(account),
        body: { reregister },
      }),
    ),
  );
}

/** Whether Safaricom enabled M-Pesa Ratiba (standing orders) for the paybill: pledgers may then pay plans automatically. */
export function useSetMpesaRatiba(account: OrganizationAccount) {
  return useMpesaAction(account, async (enabled: boolean) =>
    unwrap(
      await api.PUT("/api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/ratiba", {
        ...accountPath(account),
        body: { enabled },
      }),
    ),
  );
}

/** 'Pull now': the last 48 hours from M-Pesa; answers how many payments were listed and credited. */
export function usePullMpesa(account: OrganizationAccount) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST(
          "/api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/pull",
          accountPath(account),
        ),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: paymentKeys.mpesaConnection(account.organizationId, account.accountId),
      }),
  });
}

// Cards: an organization's card payments settle to one of its bank accounts (its Paystack subaccount).

export type CollectionAccount = Schemas["CollectionAccountOut"];

/** The organization's account `accountId` as its team sees it (null: no such account). */
export function useCollectionAccount({ organizationId, accountId }: OrganizationAccount) {
  return useQuery({
    ...collectionAccountsOptions(organizationId),
    select: (accounts) => accounts.find((account) => account.id === accountId) ?? null,
  });
}

/** 'Take card payments here': Paystack makes a subaccount for the bank account (owners and treasurers),
 * at once or once another of them approves (the answer is then the waiting change). */
export function useSetUpCards(account: OrganizationAccount) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settlementBank: string) =>
      unwrap(
        await api.PUT("/api/orgs/{organization_id}/collection-accounts/{account_id}/cards", {
          ...accountPath(account),
          body: { settlement_bank: settlementBank },
        }),
      ),
    // The account and the approvals both sit under the organization's key.
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: organizationKeys.one(account.organizationId) }),
  });
}
