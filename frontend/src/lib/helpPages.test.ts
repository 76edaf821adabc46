import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GUIDE_PAGES, helpHref } from "./helpPages";

const GUIDE = join(import.meta.dirname, "..", "..", "..", "docs", "guide");

describe("helpHref", () => {
  it("links a signed-in page to its guide page, in Kiswahili under /docs/sw/", () => {
    expect(helpHref("/orgs/4/statements", "en")).toBe("/docs/guide/treasurer-week/");
    expect(helpHref("/orgs/4/statements", "sw")).toBe("/docs/sw/guide/treasurer-week/");
    expect(helpHref("/campaign/12/desk", "sw")).toBe("/docs/sw/guide/harambee-night/");
    expect(helpHref("/campaign/12/events/3/cash", "en")).toBe("/docs/guide/harambee-night/");
    expect(helpHref("/dashboard", "en")).toBe("/docs/guide/owner-first-evening/");
  });

  it("gives no link for a page the guide does not cover", () => {
    expect(helpHref("/explore", "en")).toBeNull();
    expect(helpHref("/campaign/12/live", "en")).toBeNull();
  });

  it.each(GUIDE_PAGES)("links to a guide page that exists in English and Kiswahili: %s", (page) => {
    expect(existsSync(join(GUIDE, `${page}.md`))).toBe(true);
    expect(existsSync(join(GUIDE, `${page}.sw.md`))).toBe(true);
  });
});
