import { api, type Schemas, unwrap } from "@/lib/api/client";

/** Creates a fundraiser campaign. */
export async function createFundraiser(body: Schemas["FundraiserIn"], fallback?: string) {
  return unwrap(await api.POST("/api/campaigns", { body }), fallback);
}
