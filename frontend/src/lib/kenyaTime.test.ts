import { describe, expect, it } from "vitest";
import { kenyaDate } from "./kenyaTime";

describe("kenyaDate", () => {
  it("is the day in Nairobi, as Intl's time-zone data gives it", () => {
    const nairobi = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Nairobi" });
    for (const moment of [
      "2026-03-01T20:59:59Z",
      "2026-03-01T21:00:00Z",
      "2026-12-31T22:30:00Z",
      "2026-06-15T00:00:00Z",
    ]) {
      expect(kenyaDate(moment)).toBe(nairobi.format(new Date(moment)));
    }
    expect(kenyaDate("2026-12-31T22:30:00Z")).toBe("2027-01-01");
  });
});
