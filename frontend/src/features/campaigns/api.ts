import { msg } from "@lingui/core/macro";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { organizationKeys } from "@/features/organizations/api";
import { ApiRequestError, api, type Schemas, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import type { ExploreFilters } from "./links";

export type CampaignCard = Schemas["CampaignCardOut"];
export type Campaign = Schemas["CampaignDetailOut"];
export type CategoryValue = Schemas["Category"];

export const EXPLORE_PAGE_SIZE = 12;

export const campaignKeys = {
  lists: ["campaigns", "list"] as const,
  list: (filters: ExploreFilters) => [...campaignKeys.lists, filters] as const,
  detail: (id: number) => ["campaigns", "detail", id] as const,
  categories: ["campaign-categories"] as const,
};

/** The category lists of each screen (spec section 9); Explore's grows with the categories its
 * campaigns have, so it is asked again after a while. */
export function useCampaignCategories() {
  return useQuery({
    queryKey: campaignKeys.categories,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/campaign-categories", { signal })),
    staleTime: 5 * 60_000,
  });
}

/** Active campaigns matching the filters, a page at a time ('Load more'): pledge campaigns and the
 * legacy wizard's fundraisers, marked as such (a deliberate extension of the spec's pledging-only list). */
export function useExploreCampaigns(filters: ExploreFilters) {
  return useInfiniteQuery({
    queryKey: campaignKeys.list(filters),
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }) => {
      const result = await api.GET("/api/campaigns", {
        params: {
          query: {
            q: filters.q,
            // An unknown category from a hand-edited URL gets the server's 422 message.
            category: (filters.category || undefined) as CategoryValue | undefined,
            page: pageParam,
            page_size: EXPLORE_PAGE_SIZE,
          },
        },
        signal,
      });
      const campaigns = unwrap(result, i18n._(msg`Failed to load campaigns.`));
      const total = Number(result.response.headers.get("X-Total-Count") ?? campaigns.length);
      return { campaigns, total };
    },
    getNextPageParam: (last, _pages, page) => (page * EXPLORE_PAGE_SIZE < last.total ? page + 1 : undefined),
  });
}

/**
 * One campaign as the current viewer sees it. It is fetched again on every visit (staleTime 0): the
 * copy the server put into /campaign/{id} (under this key, backend/config/spa.py) is a visitor's view
 * and a cached one may predate signing in or out, so the viewer's own fields (liked_by_me, can_edit)
 * are trusted once `isFetchedAfterMount`.
 */
export function useCampaign(id: number) {
  return useQuery({
    queryKey: campaignKeys.detail(id),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}", { params: { path: { campaign_id: id } }, signal }),
      ),
    staleTime: 0,
  });
}

/** Saves changes of a campaign (PATCH) and puts the saved campaign into the cache. */
export function useSaveCampaign(id: number) {
  const queryClient = useQueryClient();
  return async (changes: Schemas["CampaignUpdateIn"]): Promise<Campaign> => {
    const saved = unwrap(
      await api.PATCH("/api/campaigns/{campaign_id}", {
        params: { path: { campaign_id: id } },
        body: changes,
      }),
    );
    queryClient.setQueryData(campaignKeys.detail(id), saved);
    void queryClient.invalidateQueries({ queryKey: campaignKeys.lists });
    return saved;
  };
}

/** Its owners close the campaign early; the closed campaign replaces the cached one. */
export function useCloseCampaign(id: number) {
  const queryClient = useQueryClient();
  return async (): Promise<Campaign> => {
    const closed = unwrap(
      await api.POST("/api/campaigns/{campaign_id}/close", { params: { path: { campaign_id: id } } }),
    );
    queryClient.setQueryData(campaignKeys.detail(id), closed);
    void queryClient.invalidateQueries({ queryKey: campaignKeys.lists });
    return closed;
  };
}

/** A missing or hidden campaign (404), or an id the server refuses (422). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 404 || error.status === 422);
}

/** Likes or unlikes the campaign for the signed-in user; the answer has the new count. */
export async function setLiked(campaignId: number, liked: boolean) {
  const options = { params: { path: { campaign_id: campaignId } } };
  return liked
    ? unwrap(await api.POST("/api/campaigns/{campaign_id}/likes", options))
    : unwrap(await api.DELETE("/api/campaigns/{campaign_id}/likes", options));
}

// Where a campaign's givers pay: 1 to 3 of its organization's collection accounts. Switching them is
// a payment-detail change (owners and treasurers), which may wait for another's approval (202).

export const campaignAccountsKey = (id: number) =>
  ["campaigns", "detail", id, "collection-accounts"] as const;

export function useCampaignAccounts(id: number, enabled: boolean) {
  return useQuery({
    queryKey: campaignAccountsKey(id),
    enabled,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/collection-accounts", {
          params: { path: { campaign_id: id } },
          signal,
        }),
      ),
  });
}

export function useCampaignAccountsChange(campaign: Pick<Campaign, "id" | "organization_id">) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (accountIds: number[]) =>
      unwrap(
        await api.PUT("/api/campaigns/{campaign_id}/collection-accounts", {
          params: { path: { campaign_id: campaign.id } },
          body: { account_ids: accountIds },
        }),
      ),
    onSuccess: () =>
      Promise.all([
        // The campaign's page shows its accounts' instructions; the approvals list may have grown.
        queryClient.invalidateQueries({ queryKey: campaignKeys.detail(campaign.id) }),
        queryClient.invalidateQueries({ queryKey: organizationKeys.approvals(campaign.organization_id) }),
      ]),
  });
}
