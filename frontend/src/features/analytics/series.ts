/** Pure helpers of the analytics page: the chart's series and the figures' wording. */
import type { Schemas } from "@/lib/api/client";

export type AnalyticsDay = Schemas["AnalyticsDayOut"];

/** uPlot's columns: days (seconds, midnight UTC of each Nairobi day), pledged and paid to date, the goal. */
export function chartColumns(days: AnalyticsDay[], goal: number): [number[], number[], number[], number[]] {
  return [
    days.map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000),
    days.map((day) => day.pledged_cumulative),
    days.map((day) => day.paid_cumulative),
    days.map(() => goal),
  ];
}

/** The days something happened on: the table lists these rather than every quiet day. */
export function activeDays(days: AnalyticsDay[]): AnalyticsDay[] {
  return days.filter((day) => day.pledged > 0 || day.paid > 0 || day.views > 0);
}

/** A bar's width in percent of the largest value, at least a sliver for any value above zero. */
export function barPercent(value: number, largest: number): number {
  if (value <= 0 || largest <= 0) return 0;
  return Math.max(2, Math.round((value / largest) * 100));
}

/** A chart tick: '22 Nov' for a day given as seconds at midnight UTC. */
export function tickDay(seconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(seconds * 1000),
  );
}

/** A share in percent with at most one decimal: '12.5%'. */
export function formatPercent(percent: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(percent / 100);
}
