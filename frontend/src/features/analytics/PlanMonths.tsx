import { Trans, useLingui } from "@lingui/react/macro";
import type { Schemas } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import { barPercent } from "./series";

type PlanMonth = Schemas["PlanMonthOut"];

/**
 * What the instalment plans promise each month beside what arrived: two bars a month, the amounts written
 * out beside them, so the bars need no reading. Nothing when no pledge has a plan.
 */
export function PlanMonths({ months }: { months: PlanMonth[] }) {
  const { i18n } = useLingui();
  if (months.length === 0) return null;
  const largest = Math.max(0, ...months.flatMap((month) => [month.promised, month.arrived]));
  const monthName = (iso: string) =>
    new Intl.DateTimeFormat(i18n.locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(
      new Date(`${iso}T00:00:00Z`),
    );
  return (
    <section
      aria-labelledby="analytics-plans"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id="analytics-plans" className="text-lg font-semibold text-slate-900">
        <Trans>Instalment plans: promised and arrived</Trans>
      </h2>
      <p className="text-sm text-slate-600">
        <Trans>Each month, what the pledgers' plans fall due beside the money that came in.</Trans>
      </p>
      <ul className="mt-3 space-y-3" data-testid="plan-months">
        {months.map((month) => (
          <li key={month.month}>
            <p className="text-sm font-medium text-slate-900">{monthName(month.month)}</p>
            <div className="mt-1 grid grid-cols-[6rem_1fr_auto] items-center gap-x-2 gap-y-1 text-sm">
              <span className="text-slate-600">
                <Trans>Promised</Trans>
              </span>
              <span className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <span
                  className="block h-full bg-amber-500"
                  style={{ width: `${barPercent(month.promised, largest)}%` }}
                />
              </span>
              <span className="text-right text-slate-800">{formatKsh(month.promised)}</span>
              <span className="text-slate-600">
                <Trans>Arrived</Trans>
              </span>
              <span className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <span
                  className="block h-full bg-brand-600"
                  style={{ width: `${barPercent(month.arrived, largest)}%` }}
                />
              </span>
              <span className="text-right text-slate-800">{formatKsh(month.arrived)}</span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
