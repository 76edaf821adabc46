import { useLingui } from "@lingui/react/macro";
import { formatKsh } from "@/lib/money";
import type { Figures } from "./api";

const WIDTH = 320;
const HEIGHT = 140;
const PAD = 6;

/** Money in and out over time, cumulative: two lines in a small SVG, drawn on the server with the
 * page (no chart library), with its figures in words for screen readers. */
export function MoneyChart({ chart }: { chart: Figures["chart"] }) {
  const { t } = useLingui();
  const start = chart[0];
  const last = chart[chart.length - 1];
  if (chart.length < 2 || !start || !last) return null;
  const top = Math.max(1, ...chart.map((point) => Math.max(point.money_in, point.money_out)));
  const first = Date.parse(start.day);
  const span = Math.max(1, Date.parse(last.day) - first);
  const x = (day: string) => PAD + ((Date.parse(day) - first) / span) * (WIDTH - 2 * PAD);
  const y = (amount: number) => HEIGHT - PAD - (amount / top) * (HEIGHT - 2 * PAD);
  const line = (pick: (point: (typeof chart)[number]) => number) =>
    chart
      .map((point, i) => `${i ? "L" : "M"}${x(point.day).toFixed(1)} ${y(pick(point)).toFixed(1)}`)
      .join(" ");
  const summary = t`Money in and out over time: ${formatKsh(last.money_in)} in, ${formatKsh(last.money_out)} out by ${last.day}.`;
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-4">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} className="h-auto w-full">
        <line x1={PAD} x2={WIDTH - PAD} y1={HEIGHT - PAD} y2={HEIGHT - PAD} stroke="#cbd5e1" />
        <path d={line((point) => point.money_in)} fill="none" stroke="#047857" strokeWidth="2.5" />
        <path d={line((point) => point.money_out)} fill="none" stroke="#b45309" strokeWidth="2.5" />
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-slate-700">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-2 w-4 rounded bg-emerald-700" />
          {t`Money in`}
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-2 w-4 rounded bg-amber-700" />
          {t`Money out`}
        </span>
      </figcaption>
    </figure>
  );
}
