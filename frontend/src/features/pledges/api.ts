import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type ApiError, api, type Schemas, unwrap } from "@/lib/api/client";

export type PledgeReceipt = Schemas["PledgeReceiptOut"];
export type PaymentInstruction = Schemas["PaymentInstructionOut"];
export type PublicPledge = Schemas["PledgeOut"];
export type PublicDonation = Schemas["DonationOut"];

export const pledgeKeys = {
  all: ["pledges"] as const,
  receipt: (code: string) => ["pledges", "receipt", code] as const,
  ministry: ["pledges", "ministry-campaign"] as const,
  form: (campaignId: number) => ["pledges", "form", campaignId] as const,
  payNow: (code: string) => ["pledges", "pay-now", code] as const,
};

/**
 * What the server put into a pledge page it rendered (backend/config/spa.py), so its form also works
 * as a plain HTML form without JavaScript (backend/config/pledge_form.py): the visitor's CSRF token
 * and, when the server refused a form sent that way, what was typed (by the form's field names) and
 * the refusal in the API's error shape.
 */
export type PledgeFormPage = {
  csrf_token: string;
  values: Record<string, string | boolean> | null;
  error: ApiError | null;
};

/** The server's data for this campaign's pledge form, as the page arrived (none after navigating in the app). */
export function usePledgeFormPage(campaignId: number | undefined): PledgeFormPage | undefined {
  const queryClient = useQueryClient();
  const [page] = useState(() =>
    campaignId === undefined
      ? undefined
      : queryClient.getQueryData<PledgeFormPage>(pledgeKeys.form(campaignId)),
  );
  return page;
}

/**
 * What the server put into a pledge's page it rendered (backend/config/spa.py), so its 'Pay now' form
 * also works as a plain HTML form without JavaScript (backend/config/pledge_form.py): the visitor's CSRF
 * token, an idempotency key for the prompt, and after the form was sent that way what was typed and
 * either the refusal in the API's error shape or that the prompt was sent.
 */
export type PayNowFormPage = {
  csrf_token: string;
  key: string;
  amount: string | null;
  error: ApiError | null;
  sent: boolean;
};

/** The server's data for this pledge's 'Pay now' form, as the page arrived (none after navigating in the app). */
export function usePayNowFormPage(code: string): PayNowFormPage | undefined {
  const queryClient = useQueryClient();
  const [page] = useState(() => queryClient.getQueryData<PayNowFormPage>(pledgeKeys.payNow(code)));
  return page;
}

/** A pledge as its pledger sees it, by its code. */
export const pledgeReceiptOptions = (code: string) =>
  queryOptions({
    queryKey: pledgeKeys.receipt(code),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/api/pledges/{code}", { params: { path: { code } }, signal })),
  });

/** A pledge as its pledger sees it, starting from the answer to the pledge; asked again on return to the tab. */
export function usePledgeReceipt(initial: PledgeReceipt) {
  return useQuery({
    ...pledgeReceiptOptions(initial.code),
    initialData: initial,
    initialDataUpdatedAt: Date.now,
    // A pledger often pays in the M-Pesa app and comes back: the tab's focus then refreshes what is paid.
    staleTime: 5_000,
    // While a standing order waits for the PIN on the phone, its answer is looked for every few seconds.
    refetchInterval: (query) =>
      query.state.data?.plan?.standing_order?.status === "pending" ? 3_000 : false,
  });
}

/** The campaign the ministry page's Donate and Pledge buttons lead to (chosen in the server's settings). */
export function useMinistryCampaignId() {
  return useQuery({
    queryKey: pledgeKeys.ministry,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/ministry-campaign", { signal })).campaign_id,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** 'Pay now with M-Pesa': a PIN prompt for the rest of the pledge, to `phone` or (empty) the pledge's own. */
export function useStartPledgeStkPush(code: string) {
  return useMutation({
    mutationFn: async ({ phone, amount, key }: { phone: string; amount: number; key: string }) =>
      unwrap(
        await api.POST("/api/pledges/{code}/stk-push", {
          params: { path: { code } },
          body: { phone, amount, idempotency_key: key },
        }),
      ),
  });
}

/** 'Pay now with Airtel Money': an Airtel Money PIN prompt (USSD push) for the pledge, as the M-Pesa one. */
export function useStartPledgeAirtelPush(code: string) {
  return useMutation({
    mutationFn: async ({ phone, amount, key }: { phone: string; amount: number; key: string }) =>
      unwrap(
        await api.POST("/api/pledges/{code}/airtel-push", {
          params: { path: { code } },
          body: { phone, amount, idempotency_key: key },
        }),
      ),
  });
}

/** The pledger's instalment plan, set or changed from their pledge page; the page then shows it. */
export function useSetPlanByCode(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Schemas["PlanIn"]) =>
      unwrap(await api.PUT("/api/pledges/{code}/plan", { params: { path: { code } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pledgeKeys.receipt(code) }),
  });
}

/** 'Pay automatically with M-Pesa': a standing order (M-Pesa Ratiba) for the plan, approved on the phone. */
export function useStartStandingOrder(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST("/api/pledges/{code}/standing-order", {
          params: { path: { code } },
          body: { phone: "" },
        }),
      ),
    // A refused order is shown too (its message), so the page is asked again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: pledgeKeys.receipt(code) }),
  });
}

/** Records a pledge; the answer is its receipt with the pledge code. */
/** Records a pledge; through a champion (their code), it counts for them too. */
export async function createPledge(
  body: Schemas["PledgeIn"],
  fallback?: string,
  champion: string | null = null,
) {
  if (champion) {
    const path = { campaign_id: body.campaign_id, champion_code: champion };
    return unwrap(
      await api.POST("/api/campaigns/{campaign_id}/champions/{champion_code}/pledges", {
        params: { path },
        body,
      }),
      fallback,
    );
  }
  return unwrap(await api.POST("/api/pledges", { body }), fallback);
}

/** The champion a pledge is made through: `?champion=CODE` on the pledge page's address, as a
 * champion's page links to it. Read when the form is sent, not while the page renders (the server's
 * HTML and the browser's first render stay the same). */
export function championOfPledgePage(): string | null {
  if (typeof window === "undefined") return null;
  return new URLSearchParams(window.location.search).get("champion")?.trim() || null;
}

/** Records a donation and starts its payment (STK Push or card checkout). */
export async function createDonation(body: Schemas["DonationIn"], fallback?: string) {
  return unwrap(await api.POST("/api/donations", { body }), fallback);
}

export type AccountPledges = Schemas["MyPledgesOut"];
export type AccountPledge = Schemas["MyPledgeOut"];

const accountPledgesKey = ["pledges", "mine"] as const;

/** The signed-in user's pledges, and those made by USSD or SMS from their verified number that they may claim. */
export const accountPledgesOptions = () =>
  queryOptions({
    queryKey: accountPledgesKey,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/my-pledges", { signal })),
  });

/** Asks again for the pledges one may claim (after the phone number is verified). */
export function useRefreshAccountPledges() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountPledgesKey });
}

/** Makes pledges made by phone from the verified number the user's own; the answer is the new list. */
export function useClaimPledges() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (codes: string[]) =>
      unwrap(await api.POST("/api/my-pledges/claim", { body: { codes } })),
    onSuccess: (pledges) => queryClient.setQueryData(accountPledgesKey, pledges),
  });
}
