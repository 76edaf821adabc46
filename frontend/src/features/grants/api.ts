import { msg } from "@lingui/core/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

export type OrganizationProfile = Schemas["OrganizationProfileOut"];
export type Grant = Schemas["GrantOut"];
export type GrantFilters = {
  q: string;
  category: Schemas["GrantCategory"] | "";
  bracket: Schemas["AmountBracket"] | "";
  location: string;
};
export const NO_FILTERS: GrantFilters = { q: "", category: "", bracket: "", location: "" };
export type Draft = Schemas["DraftOut"];

export const PROFILE_KEY = ["grants", "profile"] as const;
export const SEARCH_KEY = ["grants", "search"] as const;

const unexpected = () => i18n._(msg`An unexpected error occurred. Please try again.`);

/** The user's organization profile, or null before the questionnaire is complete. */
export function useOrganizationProfile() {
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: async () => {
      const result = await api.GET("/api/organizations/profile");
      return result.response.status === 404 ? null : unwrap(result, unexpected());
    },
  });
}

/** The grant_funding draft to resume (the newest open one), or null. Read once per questionnaire. */
export function useGrantDraft() {
  return useQuery({
    queryKey: ["drafts", "grant_funding"],
    queryFn: async () => {
      const drafts = unwrap(
        await api.GET("/api/campaign-drafts", { params: { query: { tool_type: "grant_funding" } } }),
        i18n._(msg`Failed to load draft`),
      );
      return drafts[0] ?? null;
    },
    // A later refetch must not reset the questions the user is answering.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
}

export function useGrantSearch(filters: GrantFilters) {
  return useQuery({
    queryKey: [...SEARCH_KEY, filters],
    queryFn: async () =>
      unwrap(
        await api.GET("/api/grants", {
          // Empty filters are left out of the address.
          params: {
            query: {
              q: filters.q.trim() || undefined,
              category: filters.category || undefined,
              bracket: filters.bracket || undefined,
              location: filters.location || undefined,
            },
          },
        }),
        unexpected(),
      ),
    placeholderData: keepPreviousData,
  });
}
