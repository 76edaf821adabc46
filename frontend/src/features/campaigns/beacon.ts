import { api } from "@/lib/api/client";

/**
 * Counts this visit of a campaign page on our own server: no cookie, no third-party tracker.
 * Fire and forget: nothing waits for it, and a failure changes nothing for the visitor.
 */
export function sendCampaignView(campaignId: number): void {
  api
    .POST("/api/campaigns/{campaign_id}/views", {
      params: { path: { campaign_id: campaignId } },
      // Still delivered when the visitor leaves at once.
      keepalive: true,
    })
    .catch(() => undefined);
}
