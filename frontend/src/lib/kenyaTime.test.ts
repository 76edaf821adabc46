import { describe, expect, it } from "vitest";
import { formatKenyaDateTime, formatKenyaTime, kenyaDate, kenyaMoment } from "./kenyaTime";

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

describe("formatKenyaDateTime and formatKenyaTime", () => {
  it("show Kenya's day and time in the reader's language", () => {
    expect(formatKenyaDateTime("2026-03-01T22:30:00Z", "en")).toBe("Mar 2, 2026, 1:30 AM");
    expect(formatKenyaDateTime("2026-03-01T22:30:00Z", "sw")).toBe("2 Mac 2026, 01:30");
    expect(formatKenyaTime(new Date("2026-03-01T22:30:00Z"), "en")).toBe("1:30 AM");
    expect(formatKenyaTime("2026-03-01T22:30:00Z", "sw")).toBe("01:30");
  });

  it("are Nairobi's time as Intl's time-zone data gives it", () => {
    const nairobi = new Intl.DateTimeFormat("en", {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: "Africa/Nairobi",
    });
    for (const moment of ["2026-03-01T20:59:59Z", "2026-06-15T12:05:00Z", "2026-12-31T21:00:00Z"]) {
      expect(formatKenyaDateTime(moment, "en")).toBe(nairobi.format(new Date(moment)));
    }
  });
});

describe("kenyaMoment", () => {
  it("reads a date-time field as Kenya's wall clock", () => {
    expect(kenyaMoment("2026-12-06T10:00")).toBe("2026-12-06T07:00:00.000Z");
    expect(kenyaMoment("2027-01-01T01:30")).toBe("2026-12-31T22:30:00.000Z");
    expect(formatKenyaDateTime(kenyaMoment("2026-12-06T10:00"), "en")).toBe("Dec 6, 2026, 10:00 AM");
  });
});
