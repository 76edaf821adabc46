import { msg } from "@lingui/core/macro";
import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

/** A campaign's analytics (its organizer and admins): money and pledges by day, method and state. */
export const analyticsOptions = (campaignId: number) =>
  queryOptions({
    queryKey: ["campaigns", "analytics", campaignId],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/analytics", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
        i18n._(msg`Failed to load analytics.`),
      ),
  });
