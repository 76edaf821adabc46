import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";

// The events feature's requests: a campaign's events (its team) and the big screen (everyone).

export type LiveScreen = Schemas["LiveScreenOut"];
export type LiveEntry = Schemas["LiveEntryOut"];
export type HiddenLiveEntry = Schemas["HiddenLiveEntryOut"];
export type CampaignEvent = Schemas["EventOut"];
export type EventIn = Schemas["EventIn"];

/** How often a big screen asks whether anything changed: an unchanged answer is an empty 304. */
export const LIVE_POLL_MS = 1000;

export const eventKeys = {
  live: (campaignId: number) => ["events", "live", campaignId] as const,
  list: (campaignId: number) => ["events", "list", campaignId] as const,
  hidden: (campaignId: number) => ["events", "hidden", campaignId] as const,
};

// The ETag of the answer each screen shows, so that its next poll asks "anything new since?".
const shownVersions = new Map<number, string>();

/**
 * The big screen's data, asked again every second (also in a background tab: a projector's window
 * may not have focus). Each answer is the whole screen, so a screen that lost the network simply
 * shows the next one: nothing twice, nothing missed.
 */
export function useLiveScreen(campaignId: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: eventKeys.live(campaignId),
    queryFn: async ({ signal }) => {
      const shown = queryClient.getQueryData<LiveScreen>(eventKeys.live(campaignId));
      const version = shown ? shownVersions.get(campaignId) : undefined;
      const result = await api.GET("/api/campaigns/{campaign_id}/live", {
        params: { path: { campaign_id: campaignId }, header: version ? { "If-None-Match": version } : {} },
        // Our own If-None-Match, never the browser's cache: a 304 then reaches this code.
        cache: "no-store",
        signal,
      });
      if (result.response.status === 304 && shown) return shown;
      const screen = unwrap(result);
      const etag = result.response.headers.get("ETag");
      if (etag) shownVersions.set(campaignId, etag);
      else shownVersions.delete(campaignId);
      return screen;
    },
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: true,
    // The next poll is the retry: a failed one must not hold the screen up with back-off.
    retry: false,
  });
}

export function useEvents(campaignId: number) {
  return useQuery({
    queryKey: eventKeys.list(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/events", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      ),
  });
}

function useRefreshEvents(campaignId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: eventKeys.list(campaignId) }),
      queryClient.invalidateQueries({ queryKey: eventKeys.live(campaignId) }),
      queryClient.invalidateQueries({ queryKey: eventKeys.hidden(campaignId) }),
    ]);
}

export function useCreateEvent(campaignId: number) {
  const refresh = useRefreshEvents(campaignId);
  return useMutation({
    mutationFn: async (body: EventIn) =>
      unwrap(
        await api.POST("/api/campaigns/{campaign_id}/events", {
          params: { path: { campaign_id: campaignId } },
          body,
        }),
      ),
    onSuccess: refresh,
  });
}

/** Opens or closes one of the campaign's events. */
export function useEventStep(campaignId: number) {
  const refresh = useRefreshEvents(campaignId);
  return useMutation({
    mutationFn: async ({ eventId, step }: { eventId: number; step: "open" | "close" }) => {
      const path = { params: { path: { event_id: eventId } } };
      return unwrap(
        step === "open"
          ? await api.POST("/api/events/{event_id}/open", path)
          : await api.POST("/api/events/{event_id}/close", path),
      );
    },
    onSuccess: refresh,
  });
}

/** Takes an entry off every big screen of the campaign (it stays in the books). */
export function useHideEntry(campaignId: number) {
  const refresh = useRefreshEvents(campaignId);
  return useMutation({
    mutationFn: async (entry: Pick<LiveEntry, "kind" | "id">) => {
      const result = await api.POST("/api/campaigns/{campaign_id}/live/hidden", {
        params: { path: { campaign_id: campaignId } },
        body: { kind: entry.kind, id: entry.id },
      });
      if (result.response.status !== 204) unwrap(result);
    },
    onSuccess: refresh,
  });
}

/** The entries hidden from the campaign's big screens, the last hidden first (its moderators). */
export function useHiddenEntries(campaignId: number) {
  return useQuery({
    queryKey: eventKeys.hidden(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/live/hidden", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      ),
  });
}

/** Puts a hidden entry back on every big screen of the campaign. */
export function useUnhideEntry(campaignId: number) {
  const refresh = useRefreshEvents(campaignId);
  return useMutation({
    mutationFn: async (entry: Pick<LiveEntry, "kind" | "id">) => {
      const result = await api.DELETE("/api/campaigns/{campaign_id}/live/hidden/{kind}/{entry_id}", {
        params: { path: { campaign_id: campaignId, kind: entry.kind, entry_id: entry.id } },
      });
      if (result.response.status !== 204) unwrap(result);
    },
    onSuccess: refresh,
  });
}
