import { useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";

export type UssdInfo = Schemas["UssdInfoOut"];

export const ussdKeys = {
  info: ["ussd"] as const,
};

/** The USSD code to dial: a server setting, fixed per release. */
export function useUssdInfo() {
  return useQuery({
    queryKey: ussdKeys.info,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/ussd", { signal })),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
