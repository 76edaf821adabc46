import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { campaignKeys } from "@/features/campaigns/api";
import { api, type Schemas, unwrap } from "@/lib/api/client";
import { unexpected } from "./api";

// Pledge Management's reads (organizer and admins). Only its own lazy chunk imports this module.

export type ManagedPledge = Schemas["PledgeOut"];
export type UnmatchedPayment = Schemas["UnmatchedPaymentOut"];
export type ReminderSettings = Schemas["ReminderSettingsOut"];

export const RECENT_PLEDGES = 10;
export const PLEDGES_PAGE_SIZE = 20;

const manageKeys = {
  campaign: (campaignId: number) => ["pledges", "manage", campaignId] as const,
  summary: (campaignId: number) => ["pledges", "manage", campaignId, "summary"] as const,
  list: (campaignId: number, q: string, pageSize: number) =>
    ["pledges", "manage", campaignId, "list", { q, pageSize }] as const,
  unmatched: (campaignId: number) => ["pledges", "manage", campaignId, "unmatched"] as const,
  reminderSettings: (campaignId: number) => ["pledges", "manage", campaignId, "reminder-settings"] as const,
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
        unexpected(),
      ),
  });
}

/** The campaign's pledges, newest first, with the real details; `q` searches name, e-mail, phone and code. */
export function usePledgeList(campaignId: number, q: string, pageSize: number) {
  return useInfiniteQuery({
    queryKey: manageKeys.list(campaignId, q, pageSize),
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }) => {
      const result = await api.GET("/api/pledges", {
        params: { query: { campaign_id: campaignId, q, page: pageParam, page_size: pageSize } },
        signal,
      });
      const pledges = unwrap(result, unexpected());
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
        unexpected(),
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
        unexpected(),
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
        unexpected(),
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
