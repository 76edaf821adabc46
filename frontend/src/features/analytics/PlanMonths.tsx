import { Trans, useLingui } from "@lingui/react/macro";
import { FigureHint } from "@/components/FigureHint";
import type { Schemas } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import { barPercent } from "./series";

type PlanMonth = Schemas["PlanMonthOut"];

/**
 * What the instalment plans promise each month beside what was paid towards them, and all the money
 * that came in: three bars a month, the amounts written out beside them, so the bars need no reading.
 * Nothing when no pledge has a plan.
 */
export function PlanMonths({ months }: { months: PlanMonth[] }) {
  const { i18n, t } = useLingui();
  if (months.length === 0) return null;
  const largest = Math.max(0, ...months.flatMap((month) => [month.promised, month.arrived]));
  const monthName = (iso: string) =>
    new Intl.DateTimeFormat(i18n.locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(
      new Date(`${iso}T00:00:00Z`),
    );
  const rows = [
    {
      label: t`Promised`,
      explanation: t`What the pledgers' instalment plans fall due this month.`,
      bar: "bg-amber-500",
      amount: (month: PlanMonth) => month.promised,
    },
    {
      label: t`Towards plans`,
      explanation: t`Payments this month to pledges that have an instalment plan: what answers the promise.`,
      bar: "bg-brand-600",
      amount: (month: PlanMonth) => month.towards_plans,
    },
    {
      label: t`All money in`,
      explanation: t`Every shilling counted this month: all pledge payments and gifts, with or without a plan.`,
      bar: "bg-slate-400",
      amount: (month: PlanMonth) => month.arrived,
    },
  ];
  return (
    <section
      aria-labelledby="analytics-plans"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id="analytics-plans" className="text-lg font-semibold text-slate-900">
        <Trans>Instalment plans: promised and paid</Trans>
      </h2>
      <p className="text-sm text-slate-600">
        <Trans>
          Each month, what the pledgers' plans fall due beside what was paid towards them, and all the money
          that came in.
        </Trans>
      </p>
      <ul className="mt-3 space-y-3" data-testid="plan-months">
        {months.map((month) => (
          <li key={month.month}>
            <p className="text-sm font-medium text-slate-900">{monthName(month.month)}</p>
            <div className="mt-1 grid grid-cols-[8rem_1fr_auto] items-center gap-x-2 gap-y-1 text-sm">
              {rows.map((row) => (
                <PlanRow key={row.label} {...row} value={row.amount(month)} largest={largest} />
              ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PlanRow(props: { label: string; explanation: string; bar: string; value: number; largest: number }) {
  return (
    <>
      <span className="text-slate-600">
        {props.label}
        <FigureHint figure={props.label} explanation={props.explanation} />
      </span>
      <span className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        <span
          className={`block h-full ${props.bar}`}
          style={{ width: `${barPercent(props.value, props.largest)}%` }}
        />
      </span>
      <span className="text-right text-slate-800">{formatKsh(props.value)}</span>
    </>
  );
}
