import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiRequestError, api, type Schemas, unwrap } from "@/lib/api/client";

// The champions' requests: the public leaderboards, becoming a champion, a champion's own view of their
// circle and 'Remind my circle', and the team's list of champions and teams, its cards and a card
// returned at the desk. Query keys and hooks in one place; only the champions' own lazy chunks import it.

export type Leaderboards = Schemas["LeaderboardsOut"];
export type Board = Schemas["BoardOut"];
export type Champion = Schemas["ChampionOut"];
export type Circle = Schemas["CircleOut"];
export type Roster = Schemas["RosterOut"];
export type RosterChampion = Schemas["RosterChampionOut"];
export type ChampionIn = Schemas["ChampionIn"];
export type CardReturnIn = Schemas["CardReturnIn"];

export const championKeys = {
  campaign: (campaignId: number) => ["champions", campaignId] as const,
  leaderboards: (campaignId: number) => ["champions", campaignId, "leaderboards"] as const,
  mine: (campaignId: number) => ["champions", campaignId, "mine"] as const,
  circle: (campaignId: number, code: string) => ["champions", campaignId, "circle", code] as const,
  roster: (campaignId: number) => ["champions", campaignId, "roster"] as const,
};

/** The QR code of a champion's page (an SVG the server draws), to show or save. */
export function championQrUrl(campaignId: number, code: string): string {
  return `/api/campaigns/${campaignId}/champions/${encodeURIComponent(code)}/qr.svg`;
}

/** The champions' numbered harambee cards as one PDF to print (owners and treasurers). */
export function harambeeCardsUrl(campaignId: number): string {
  return `/api/campaigns/${campaignId}/harambee-cards.pdf`;
}

/** The top champions and teams, tonight and overall, as the public sees them; asked again every
 * `refreshMs` on a screen that nobody touches (the big screen). */
export function useLeaderboards(campaignId: number, refreshMs: number | false = false) {
  return useQuery({
    queryKey: championKeys.leaderboards(campaignId),
    refetchInterval: refreshMs,
    refetchIntervalInBackground: refreshMs !== false,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/champions", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      ),
  });
}

/** The signed-in member's own championship of the campaign; null when they are not one of its champions. */
export function useMyChampion(campaignId: number, signedIn: boolean) {
  return useQuery({
    queryKey: championKeys.mine(campaignId),
    enabled: signedIn,
    queryFn: async ({ signal }) => {
      try {
        return unwrap(
          await api.GET("/api/campaigns/{campaign_id}/my-champion", {
            params: { path: { campaign_id: campaignId } },
            signal,
          }),
        );
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

export function useBecomeChampion(campaignId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ChampionIn) =>
      unwrap(
        await api.POST("/api/campaigns/{campaign_id}/champions", {
          params: { path: { campaign_id: campaignId } },
          body,
        }),
      ),
    onSuccess: (champion) => {
      queryClient.setQueryData(championKeys.mine(campaignId), champion);
      void queryClient.invalidateQueries({ queryKey: championKeys.leaderboards(campaignId) });
      void queryClient.invalidateQueries({ queryKey: championKeys.roster(campaignId) });
    },
  });
}

/** Who gave through the champion, what they pledged, paid and still owe (the champion and the team). */
export function useCircle(campaignId: number, code: string) {
  return useQuery({
    queryKey: championKeys.circle(campaignId, code),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/champions/{champion_code}/circle", {
          params: { path: { campaign_id: campaignId, champion_code: code } },
          signal,
        }),
      ),
  });
}

/** 'Remind my circle': how many reminders went out, and how many were skipped. */
export function useRemindCircle(campaignId: number, code: string) {
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST("/api/campaigns/{campaign_id}/champions/{champion_code}/remind", {
          params: { path: { campaign_id: campaignId, champion_code: code } },
        }),
      ),
  });
}

/** Every champion (on the board or not) and team, with their totals: the campaign's team. */
export function useRoster(campaignId: number) {
  return useQuery({
    queryKey: championKeys.roster(campaignId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/campaigns/{campaign_id}/champion-roster", {
          params: { path: { campaign_id: campaignId } },
          signal,
        }),
      ),
  });
}

/** After the team changed champions or teams: the list, the boards and the viewer's own championship. */
function useRefreshChampions(campaignId: number) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: championKeys.campaign(campaignId) });
}

export function useCreateTeam(campaignId: number) {
  const refresh = useRefreshChampions(campaignId);
  return useMutation({
    mutationFn: async (body: Schemas["TeamIn"]) =>
      unwrap(
        await api.POST("/api/campaigns/{campaign_id}/champion-teams", {
          params: { path: { campaign_id: campaignId } },
          body,
        }),
      ),
    onSuccess: refresh,
  });
}

/** A champion on or off the leaderboards (the champion, or the campaign's owners and treasurers). */
export function useSetOnLeaderboard(campaignId: number) {
  const refresh = useRefreshChampions(campaignId);
  return useMutation({
    mutationFn: async ({ code, onLeaderboard }: { code: string; onLeaderboard: boolean }) =>
      unwrap(
        await api.PATCH("/api/campaigns/{campaign_id}/champions/{champion_code}", {
          params: { path: { campaign_id: campaignId, champion_code: code } },
          body: { on_leaderboard: onLeaderboard, leave_team: false },
        }),
      ),
    onSuccess: refresh,
  });
}

/** A harambee card brought back to the desk: its cash, M-Pesa total and the gifts written on it. */
export function useReturnCard(campaignId: number) {
  const refresh = useRefreshChampions(campaignId);
  return useMutation({
    mutationFn: async ({ number, body }: { number: number; body: CardReturnIn }) =>
      unwrap(
        await api.POST("/api/campaigns/{campaign_id}/harambee-cards/{number}/return", {
          params: { path: { campaign_id: campaignId, number } },
          body,
        }),
      ),
    onSuccess: refresh,
  });
}
