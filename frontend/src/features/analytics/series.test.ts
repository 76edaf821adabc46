import { describe, expect, it } from "vitest";
import { type AnalyticsDay, activeDays, barPercent, chartColumns, formatPercent, tickDay } from "./series";

function day(date: string, figures: Partial<AnalyticsDay> = {}): AnalyticsDay {
  return {
    day: date,
    pledged: 0,
    paid: 0,
    donated: 0,
    pledged_cumulative: 0,
    paid_cumulative: 0,
    views: 0,
    visitors: 0,
    ...figures,
  };
}

describe("chartColumns", () => {
  it("puts each day at midnight UTC with the amounts to date and the goal beside them", () => {
    const days = [
      day("2026-11-21", { pledged_cumulative: 10_000 }),
      day("2026-11-22", { pledged_cumulative: 15_000, paid_cumulative: 4_000 }),
    ];
    expect(chartColumns(days, 100_000)).toEqual([
      [1795219200, 1795305600],
      [10_000, 15_000],
      [0, 4_000],
      [100_000, 100_000],
    ]);
  });
});

describe("activeDays", () => {
  it("keeps the days with pledges, payments or views", () => {
    const days = [day("2026-11-20"), day("2026-11-21", { views: 3 }), day("2026-11-22", { paid: 500 })];
    expect(activeDays(days).map((d) => d.day)).toEqual(["2026-11-21", "2026-11-22"]);
  });
});

describe("barPercent", () => {
  it("scales to the largest value and keeps a sliver for small ones", () => {
    expect(barPercent(50, 200)).toBe(25);
    expect(barPercent(1, 10_000)).toBe(2);
    expect(barPercent(0, 100)).toBe(0);
    expect(barPercent(0, 0)).toBe(0);
  });
});

describe("wording", () => {
  it("names days and shows shares with one decimal at most", () => {
    expect(tickDay(1795305600, "en-GB")).toBe("22 Nov");
    expect(formatPercent(12.5, "en-KE")).toBe("12.5%");
    expect(formatPercent(50, "en-KE")).toBe("50%");
  });
});
