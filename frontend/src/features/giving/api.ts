import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";

export type MyGiving = Schemas["MyGivingOut"];
export type GivingPledge = Schemas["GivingPledgeOut"];
export type GivingGift = Schemas["GivingGiftOut"];

export const givingKeys = {
  all: ["giving"] as const,
  mine: ["giving", "mine"] as const,
};

/** Every pledge and gift of the signed-in person, across organizations and channels. */
export const myGivingOptions = () =>
  queryOptions({
    queryKey: givingKeys.mine,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/my-giving", { signal })),
  });

/** Asks again (after the phone number is verified, more is found). */
export function useRefreshMyGiving() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: givingKeys.all });
}

/** Where the statement of `year` downloads from, in `language`: a plain link (the browser saves the PDF). */
export function statementUrl(year: number, language: string): string {
  return `/api/my-giving/statement.pdf?${new URLSearchParams({ year: String(year), language })}`;
}

export type StatementPreview = Schemas["StatementPreviewOut"];
export type StatementRun = Schemas["StatementRunOut"];

export const statementKeys = {
  preview: (organizationId: number, year: number) =>
    ["giving", "statements", organizationId, "preview", year] as const,
  run: (organizationId: number, runId: number) =>
    ["giving", "statements", organizationId, "run", runId] as const,
};

/** Before sending a year's statements: how many givers, reached by e-mail or SMS, and who cannot be reached. */
export function useStatementPreview(organizationId: number, year: number, enabled: boolean) {
  return useQuery({
    queryKey: statementKeys.preview(organizationId, year),
    enabled,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/giving-statements/preview", {
          params: { path: { organization_id: organizationId }, query: { year } },
          signal,
        }),
      ),
  });
}

/** Starts sending every giver of the year their statement: a background job. */
export function useStatementsSend(organizationId: number) {
  return useMutation({
    mutationFn: async (year: number) =>
      unwrap(
        await api.POST("/api/orgs/{organization_id}/giving-statements/runs", {
          params: { path: { organization_id: organizationId } },
          body: { year },
        }),
      ),
  });
}

/** A sending's progress, asked again every two seconds until it is done. */
export function useStatementRun(organizationId: number, runId: number | null) {
  return useQuery<StatementRun>({
    queryKey: statementKeys.run(organizationId, runId ?? 0),
    enabled: runId !== null,
    refetchInterval: (query) => (query.state.data?.status === "done" ? false : 2_000),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/giving-statements/runs/{run_id}", {
          params: { path: { organization_id: organizationId, run_id: runId ?? 0 } },
          signal,
        }),
      ),
  });
}

/** The first giver's statement of the year, as givers will receive theirs. */
export function sampleStatementUrl(organizationId: number, year: number, language: string): string {
  return `/api/orgs/${organizationId}/giving-statements/sample.pdf?${new URLSearchParams({ year: String(year), language })}`;
}
