import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { featureCycles, featureGraph, readSources } from "../../scripts/check-feature-cycles.mjs";

// `npm run lint` runs scripts/check-feature-cycles.mjs: features compose at the route level, never by
// importing each other both ways.
describe("the feature import cycle check", () => {
  it("finds no cycle between the features of src", () => {
    const src = resolve(__dirname, "..");
    expect(featureCycles(featureGraph(readSources(src)))).toEqual([]);
  });

  it("fails on a deliberate cycle, through any kind of import", () => {
    const graph = featureGraph([
      {
        path: "features/pledges/PledgeForm.tsx",
        text: 'import { useCampaign } from "@/features/campaigns/api";',
      },
      {
        path: "features/campaigns/CampaignPage.tsx",
        text: 'const Activity = lazy(() => import("../pledges/CampaignActivity"));',
      },
      { path: "components/Shared.tsx", text: 'import { x } from "@/features/pledges/api";' },
    ]);
    expect(featureCycles(graph)).toEqual([["campaigns", "pledges", "campaigns"]]);
  });

  it("lets a feature import shared code and features below it", () => {
    const graph = featureGraph([
      {
        path: "features/pledges/PledgeForm.tsx",
        text: 'import { useCampaign } from "@/features/campaigns/api";',
      },
      { path: "features/campaigns/CampaignPage.tsx", text: 'import { formatKsh } from "@/lib/money";' },
    ]);
    expect(featureCycles(graph)).toEqual([]);
  });
});
