import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { draftOptions } from "@/features/wizard/api";
import { api, type Schemas, unwrap } from "@/lib/api/client";

export type OrganizationProfile = Schemas["OrganizationProfileOut"];
export type Grant = Schemas["GrantOut"];
export type GrantFilters = {
  q: string;
  category: Schemas["GrantCategory"] | "";
  bracket: Schemas["AmountBracket"] | "";
  location: string;
};
export const NO_FILTERS: GrantFilters = { q: "", category: "", bracket: "", location: "" };

export const PROFILE_KEY = ["grants", "profile"] as const;
export const SEARCH_KEY = ["grants", "search"] as const;

/** The user's organization profile, or null before the questionnaire is complete. */
export function useOrganizationProfile() {
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: async () => {
      const result = await api.GET("/api/organizations/profile");
      return result.response.status === 404 ? null : unwrap(result);
    },
  });
}

/** The grant_funding draft to resume (the newest open one), or null. Read once per questionnaire. */
export function useGrantDraft() {
  return useQuery({
    ...draftOptions("grant_funding"),
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
      ),
    placeholderData: keepPreviousData,
  });
}

/** Saves the questionnaire's answers as the organization profile. */
export async function saveOrganizationProfile(body: Schemas["OrganizationProfileIn"], fallback?: string) {
  return unwrap(await api.PUT("/api/organizations/profile", { body }), fallback);
}

/** Where the user's application for a grant stands (saved, applied, awarded, declined), with a note. */
export async function saveApplication(grantId: number, body: Schemas["GrantApplicationIn"]) {
  return unwrap(
    await api.PUT("/api/grants/{grant_id}/application", { params: { path: { grant_id: grantId } }, body }),
  );
}
