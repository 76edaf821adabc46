import { useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatKshCompact } from "@/lib/money";
import { type AnalyticsDay, chartColumns, tickDay } from "./series";

const HEIGHT = 260;
const DAY = 86_400;
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY];

/**
 * Pledged and paid to date against the goal, drawn on a canvas by uPlot (about 20 KB gzip, loaded
 * only with the analytics page). Hidden from screen readers: the page's table holds the same figures.
 */
export function CumulativeChart({ days, goal }: { days: AnalyticsDay[]; goal: number }) {
  const { t, i18n } = useLingui();
  const container = useRef<HTMLDivElement>(null);
  const locale = i18n.locale;
  const [pledgedLabel, paidLabel, goalLabel] = [t`Pledged`, t`Paid`, t`Goal`];

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        // Days are Nairobi calendar days sent as midnight UTC: read them back in UTC.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
        scales: { x: { time: true }, y: { range: (_chart, _min, max) => [0, Math.max(max, 1) * 1.05] } },
        series: [
          {},
          { label: pledgedLabel, stroke: "#047857", width: 2.5 },
          { label: paidLabel, stroke: "#1d4ed8", width: 2.5 },
          {
            label: goalLabel,
            stroke: "#b45309",
            width: 1.5,
            dash: [6, 4],
            points: { show: false },
          },
        ],
        // A plain key under the chart: hover values are of little use on a phone, and the table has them.
        legend: { live: false },
        axes: [
          // Whole days only (1, 2, 7, 14 or about 30 of them between ticks).
          { incrs: DAY_STEPS, values: (_chart, ticks) => ticks.map((tick) => tickDay(tick, locale)) },
          { size: 72, values: (_chart, ticks) => ticks.map((tick) => formatKshCompact(tick)) },
        ],
      },
      chartColumns(days, goal),
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, goal, locale, pledgedLabel, paidLabel, goalLabel]);

  return <div ref={container} aria-hidden="true" className="w-full text-sm" data-testid="cumulative-chart" />;
}
