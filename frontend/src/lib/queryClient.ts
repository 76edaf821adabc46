import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { ApiRequestError } from "./api/client";

/** The app's query cache settings: the browser's one client, and a fresh one per server render. */
export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx will not get better by asking again.
        retry: (failureCount, error) =>
          !(error instanceof ApiRequestError && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export const queryClient = newQueryClient();

/**
 * Answers the server put into the page (backend/config/spa.py): each under the query key of the hook
 * that would fetch it, so the server's render and the browser's first render read the same data.
 */
export type PageQuery = { queryKey: QueryKey; data: unknown };

export function queriesSeed(client: QueryClient, queries: readonly PageQuery[]): void {
  for (const { queryKey, data } of queries) client.setQueryData(queryKey, data);
}
