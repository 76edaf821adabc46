import { useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";

export type SuccessStory = Schemas["SuccessStoryOut"];

export const landingKeys = {
  successStories: ["success-stories"] as const,
};

/** Real campaigns whose owners agreed to be featured, best-funded first (an empty list hides the section). */
export function useSuccessStories() {
  return useQuery({
    queryKey: landingKeys.successStories,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/success-stories", { signal })),
    staleTime: 5 * 60_000,
  });
}
