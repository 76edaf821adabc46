import { afterEach, describe, expect, it } from "vitest";
import { http, server } from "@/test/server";
import { championOfPledgePage, createPledge } from "./api";

const BODY = {
  campaign_id: 4,
  amount: 2_500,
  name: "Kamau Njoroge",
  email: "k@example.com",
  phone: "0712000777",
  is_anonymous: false,
};
const RECEIPT = { id: 9, campaign_id: 4, code: "K7M2Q9X" };

describe("pledging through a champion", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("reads the champion from the pledge page's address, and none without one", () => {
    expect(championOfPledgePage()).toBeNull();
    window.history.replaceState(null, "", "/campaign/4/pledge?champion=ABC234");
    expect(championOfPledgePage()).toBe("ABC234");
  });

  it("sends the pledge to the champion's own pledges, so that it counts for them", async () => {
    const paths: string[] = [];
    server.use(
      http.post("/api/campaigns/{campaign_id}/champions/{champion_code}/pledges", ({ params, response }) => {
        paths.push(`${params.campaign_id}/${params.champion_code}`);
        return response(201).json(RECEIPT as never);
      }),
    );

    await createPledge(BODY, undefined, "ABC234");

    expect(paths).toEqual(["4/ABC234"]);
  });
});
