import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";
import type { paths } from "@/lib/api/schema";

// How the money was used: the public answer (its page and the campaign page's section, both given their
// data by the server under spendingKeys.accountability, backend/config/spa.py) and the team's lines.

export type Accountability = Schemas["AccountabilityOut"];
export type Figures = Schemas["SpendingFiguresOut"];
export type TeamSpending = Schemas["TeamSpendingOut"];
export type TeamLine = Schemas["TeamLineOut"];
export type SpendingCategory = Schemas["SpendingCategory"];
export type PayeeKind = Schemas["PayeeKind"];

export const spendingKeys = {
  accountability: (campaignId: number) => ["spending", "accountability", campaignId] as const,
  team: (campaignId: number) => ["spending", "team", campaignId] as const,
};

export function useAccountability(campaignId: number) {
  return useQuery({
    queryKey: spendingKeys.accountability(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/accountability", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      ),
  });
}

export function useTeamSpending(campaignId: number) {
  return useQuery({
    queryKey: spendingKeys.team(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/spending", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      ),
  });
}

function useRefresh(campaignId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: spendingKeys.team(campaignId) }),
      queryClient.invalidateQueries({ queryKey: spendingKeys.accountability(campaignId) }),
    ]);
}

type RecordForm =
  paths["/api/campaigns/{campaign_id}/spending"]["post"]["requestBody"]["content"]["multipart/form-data"];

export type LineInput = {
  spent_on: string;
  payee: string;
  payee_kind: PayeeKind;
  category: SpendingCategory;
  amount: number;
  account_id: number | null;
  note: string;
  publish_receipt: boolean;
  receipt: File | null;
};

/** Records a line (multipart: its fields and the receipt); it waits for a second person's approval. */
export function useRecordSpending(campaignId: number) {
  const refresh = useRefresh(campaignId);
  return useMutation({
    mutationFn: async (line: LineInput) => {
      const body = new FormData();
      body.append("spent_on", line.spent_on);
      body.append("payee", line.payee);
      body.append("payee_kind", line.payee_kind);
      body.append("category", line.category);
      body.append("amount", String(line.amount));
      if (line.account_id !== null) body.append("account_id", String(line.account_id));
      body.append("note", line.note);
      body.append("publish_receipt", String(line.publish_receipt));
      if (line.receipt) body.append("receipt", line.receipt);
      return unwrap(
        await api.POST("/api/campaigns/{campaign_id}/spending", {
          params: { path: { campaign_id: campaignId } },
          // openapi-fetch sends FormData as it is; the generated type only knows the fields' names.
          body: body as unknown as RecordForm,
        }),
      );
    },
    onSuccess: refresh,
  });
}

export function useApproveSpending(campaignId: number) {
  const refresh = useRefresh(campaignId);
  return useMutation({
    mutationFn: async (recordId: number) =>
      unwrap(
        await api.POST("/api/spending/{record_id}/approval", { params: { path: { record_id: recordId } } }),
      ),
    onSuccess: refresh,
  });
}

export function useReverseSpending(campaignId: number) {
  const refresh = useRefresh(campaignId);
  return useMutation({
    mutationFn: async ({ recordId, reason }: { recordId: number; reason: string }) =>
      unwrap(
        await api.POST("/api/spending/{record_id}/reversal", {
          params: { path: { record_id: recordId } },
          body: { reason },
        }),
      ),
    onSuccess: refresh,
  });
}

export function usePostProgressUpdate(campaignId: number) {
  const refresh = useRefresh(campaignId);
  return useMutation({
    mutationFn: async (text: string) =>
      unwrap(
        await api.POST("/api/campaigns/{campaign_id}/progress-updates", {
          params: { path: { campaign_id: campaignId } },
          body: { text, photo_urls: [] },
        }),
      ),
    onSuccess: refresh,
  });
}

export function reportUrl(campaignId: number, kind: "pdf" | "csv", start: string, end: string): string {
  const query = new URLSearchParams();
  if (start) query.set("start", start);
  if (end) query.set("end", end);
  const search = query.toString();
  return `/api/campaigns/${campaignId}/spending-report.${kind}${search ? `?${search}` : ""}`;
}
