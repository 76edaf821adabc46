// @vitest-environment jsdom
// A page: safeNextPath reads the page's own address (window.location).
import { describe, expect, it } from "vitest";
import { safeNextPath } from "./RequireAuth";

describe("safeNextPath", () => {
  it.each([
    ["?next=%2Fcampaign%2F12%3Ftab%3Dpledges", "/campaign/12?tab=pledges"],
    ["?next=/dashboard", "/dashboard"],
    ["?next=%2Fdashboard%3Forganization%3D3", "/dashboard?organization=3"],
    ["?next=/campaign/14", "/campaign/14"],
    ["?next=%2Forgs%2F4%2Fstatements%3Fpage%3D2", "/orgs/4/statements?page=2"],
  ])("keeps %s, a page of the app, with its query", (search, path) => {
    expect(safeNextPath(search)).toBe(path);
  });

  it.each([
    "?next=%2F%5Cevil.example",
    "?next=/%5Cevil.example",
    "?next=//evil.example",
    "?next=%2F%2Fevil.example",
    "?next=/\\evil",
    "?next=https://evil.example",
    "?next=javascript:alert(1)",
    "?next=%2Fjavascript%3Aalert(1)",
    "?next=/%09/evil.example",
    "?next=/unknown-page",
    "?next=/campaign/abc",
    "?next=/api/auth/signout",
    "?next=/admin/",
    "?next=",
    "",
  ])("sends %s to the dashboard instead of another site or an unknown page", (search) => {
    expect(safeNextPath(search)).toBe("/dashboard");
  });
});
