import { msg } from "@lingui/core/macro";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { campaignKeys } from "@/features/campaigns/api";
import { api, type Schemas, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

// Pledge Management's requests (organizer and admins): every read and every action of its table, its
// unmatched-payments panel and its dialogs. Only its own lazy chunk imports this module.

export type ManagedPledge = Schemas["PledgeOut"];
export type UnmatchedPayment = Schemas["UnmatchedPaymentOut"];
export type ReminderSettings = Schemas["ReminderSettingsOut"];
export type PlanIn = Schemas["PlanIn"];

export const RECENT_PLEDGES = 10;
export const PLEDGES_PAGE_SIZE = 20;

const manageKeys = {
  campaign: (campaignId: number) => ["pledges", "manage", campaignId] as const,
  summary: (campaignId: number) => ["pledges", "manage", campaignId, "summary"] as const,
  list: (campaignId: number, q: string, pageSize: number, behind: boolean) =>
    ["pledges", "manage", campaignId, "list", { q, pageSize, behind }] as const,
  unmatched: (campaignId: number) => ["pledges", "manage", campaignId, "unmatched"] as const,
  reminderSettings: (campaignId: number) => ["pledges", "manage", campaignId, "reminder-settings"] as const,
  payments: (campaignId: number, pledgeId: number) =>
    ["pledges", "manage", campaignId, "payments", pledgeId] as const,
  history: (campaignId: number, pledgeId: number) =>
    ["pledges", "manage", campaignId, "history", pledgeId] as const,
};

export function usePledgeSummary(campaignId: number) {
  return useQuery({
    queryKey: manageKeys.summary(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/pledge-summary", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      ),
  });
}

/**
 * The campaign's pledges, newest first, with the real details; `q` searches name, e-mail, phone and code;
 * `behind` keeps those whose pledger is behind their instalment plan.
 */
export function usePledgeList(campaignId: number, q: string, pageSize: number, behind = false) {
  return useInfiniteQuery({
    queryKey: manageKeys.list(campaignId, q, pageSize, behind),
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }) => {
      const result = await api.GET("/api/pledges", {
        params: { query: { campaign_id: campaignId, q, behind, page: pageParam, page_size: pageSize } },
        signal,
      });
      const pledges = unwrap(result);
      return { pledges, total: Number(result.response.headers.get("X-Total-Count") ?? pledges.length) };
    },
    getNextPageParam: (last, _pages, page) => (page * pageSize < last.total ? page + 1 : undefined),
  });
}

export function useUnmatchedPayments(campaignId: number) {
  return useQuery({
    queryKey: manageKeys.unmatched(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/unmatched-payments", {
          params: { path: { campaign_id: campaignId }, query: { page: 1, page_size: 50 } },
          signal,
        }),
      ),
  });
}

/** Whether and when the campaign's pledgers are reminded, and how the organizer hears of new pledges. */
export function useReminderSettings(campaignId: number) {
  return useQuery({
    queryKey: manageKeys.reminderSettings(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/reminder-settings", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      ),
  });
}

export function useSaveReminderSettings(campaignId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Omit<ReminderSettings, "offset_choices">) =>
      unwrap(
        await api.PUT("/api/campaigns/{campaign_id}/reminder-settings", {
          params: { path: { campaign_id: campaignId } },
          body,
        }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(manageKeys.reminderSettings(campaignId), saved),
  });
}

/** After a confirmation or a payment: every management view and the campaign's totals are out of date. */
export function useRefreshCampaignPledges(campaignId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: manageKeys.campaign(campaignId) }),
      queryClient.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) }),
    ]);
}

/** Assigns a paybill payment that matched no pledge code to the pledge it was meant for. */
export function useAssignPayment(campaignId: number) {
  const refresh = useRefreshCampaignPledges(campaignId);
  return useMutation({
    mutationFn: async ({ pledgeId, reference }: { pledgeId: number; reference: string }) =>
      unwrap(
        await api.POST("/api/pledges/{pledge_id}/assign-payment", {
          params: { path: { pledge_id: pledgeId } },
          body: { reference },
        }),
      ),
    onSuccess: () => refresh(),
  });
}

export const confirmFailed = () => i18n._(msg`Failed to confirm payment. Please try again.`);

/** 'Confirm payment': the rest of the pledge was paid outside the paybill, by the method, day and reference given. */
export function useConfirmPayment(pledge: ManagedPledge) {
  const refresh = useRefreshCampaignPledges(pledge.campaign_id);
  return useMutation({
    mutationFn: async (how: Omit<Schemas["ConfirmPaymentIn"], "pledgeId">) =>
      unwrap(
        await api.POST("/api/confirm-payment", { body: { pledgeId: pledge.id, ...how } }),
        confirmFailed(),
      ),
    onSuccess: () => refresh(),
  });
}

/** Records a cash or bank payment towards the pledge (entered in the ledger with who recorded it). */
export function useRecordPayment(pledge: ManagedPledge) {
  const refresh = useRefreshCampaignPledges(pledge.campaign_id);
  return useMutation({
    mutationFn: async (payment: Schemas["ManualPaymentIn"]) =>
      unwrap(
        await api.POST("/api/pledges/{pledge_id}/payments", {
          params: { path: { pledge_id: pledge.id } },
          body: payment,
        }),
      ),
    onSuccess: () => refresh(),
  });
}

/** One reminder by SMS and e-mail now (the server allows one an hour per pledge and says so). */
export function useRemindPledger(pledge: ManagedPledge) {
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST("/api/pledges/{pledge_id}/remind", { params: { path: { pledge_id: pledge.id } } }),
      ),
  });
}

export type PledgePayment = Schemas["PledgePaymentOut"];
export type PledgeHistoryEntry = Schemas["PledgeHistoryEntryOut"];

/** The payments counted towards a pledge, reversed ones included (marked), newest first. */
export function usePledgePayments(pledge: ManagedPledge) {
  return useQuery({
    queryKey: manageKeys.payments(pledge.campaign_id, pledge.id),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/pledges/{pledge_id}/payments", {
          params: { path: { pledge_id: pledge.id } },
          signal,
        }),
      ),
  });
}

/** What people did to a pledge and its payments (the audit log), newest first, with their reasons. */
export function usePledgeHistory(pledge: ManagedPledge) {
  return useQuery({
    queryKey: manageKeys.history(pledge.campaign_id, pledge.id),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/pledges/{pledge_id}/history", {
          params: { path: { pledge_id: pledge.id } },
          signal,
        }),
      ),
  });
}

/** Changes the pledge's amount, with a reason (never below what is paid). */
export function useCorrectPledge(pledge: ManagedPledge) {
  const refresh = useRefreshCampaignPledges(pledge.campaign_id);
  return useMutation({
    mutationFn: async (body: Schemas["PledgeCorrectionIn"]) =>
      unwrap(
        await api.POST("/api/pledges/{pledge_id}/correction", {
          params: { path: { pledge_id: pledge.id } },
          body,
        }),
      ),
    onSuccess: () => refresh(),
  });
}

/** Cancels the pledge, with a reason; its payments go to another pledge or are kept as gifts. */
export function useCancelPledge(pledge: ManagedPledge) {
  const refresh = useRefreshCampaignPledges(pledge.campaign_id);
  return useMutation({
    mutationFn: async (body: Schemas["PledgeCancelIn"]) =>
      unwrap(
        await api.POST("/api/pledges/{pledge_id}/cancellation", {
          params: { path: { pledge_id: pledge.id } },
          body,
        }),
      ),
    onSuccess: () => refresh(),
  });
}

/** Restores a cancelled pledge, with a reason. */
export function useRestorePledge(pledge: ManagedPledge) {
  const refresh = useRefreshCampaignPledges(pledge.campaign_id);
  return useMutation({
    mutationFn: async (body: Schemas["PledgeRestoreIn"]) =>
      unwrap(
        await api.POST("/api/pledges/{pledge_id}/restoration", {
          params: { path: { pledge_id: pledge.id } },
          body,
        }),
      ),
    onSuccess: () => refresh(),
  });
}

/** A plan agreed with the pledger (its first instalment may lie in the past); answers the pledge with it. */
export function useSetPlan(pledge: ManagedPledge) {
  const refresh = useRefreshCampaignPledges(pledge.campaign_id);
  return useMutation({
    mutationFn: async (body: PlanIn) =>
      unwrap(
        await api.PUT("/api/pledges/{pledge_id}/instalment-plan", {
          params: { path: { pledge_id: pledge.id } },
          body,
        }),
      ),
    onSuccess: () => refresh(),
  });
}

/** Reverses a payment entered by hand with a reversing entry and a reason. */
export function useReversePayment(pledge: ManagedPledge) {
  const refresh = useRefreshCampaignPledges(pledge.campaign_id);
  return useMutation({
    mutationFn: async ({ reference, reason }: { reference: string; reason: string }) =>
      unwrap(
        await api.POST("/api/payments/{reference}/reversal", {
          params: { path: { reference } },
          body: { reason },
        }),
      ),
    onSuccess: () => refresh(),
  });
}
