import { describe, expect, it } from "vitest";
import { safeNextPath } from "./RequireAuth";

describe("safeNextPath", () => {
  it("keeps a path of this site, with its query", () => {
    expect(safeNextPath("?next=%2Fcampaign%2F12%3Ftab%3Dpledges")).toBe("/campaign/12?tab=pledges");
  });

  it.each([
    "?next=%2F%5Cevil.example",
    "?next=/%5Cevil.example",
    "?next=//evil.example",
    "?next=https://evil.example",
    "?next=/%09/evil.example",
    "?next=",
    "",
  ])("sends %s to the dashboard instead of another site", (search) => {
    expect(safeNextPath(search)).toBe("/dashboard");
  });
});
