import { queryOptions, useQueryClient } from "@tanstack/react-query";
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
