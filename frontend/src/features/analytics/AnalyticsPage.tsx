import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { outlineButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { isNotFound } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { formatCalendarDate, parseCampaignId } from "@/features/campaigns/links";
import { errorMessage, type Schemas } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import { analyticsOptions } from "./api";
import { CumulativeChart } from "./CumulativeChart";
import { PlanMonths } from "./PlanMonths";
import { activeDays, barPercent, formatPercent } from "./series";

type Analytics = Schemas["CampaignAnalyticsOut"];

/**
 * /campaign/{id}/analytics, for the campaign's organizer and admins (the server answers 403 to
 * anyone else): money over time against the goal, pledges by state, payments by method, page
 * views and conversion, the best days, and the CSV exports. Its own chunk, with the chart library.
 */
export default function AnalyticsPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return <AppLayout>{id === null ? <CampaignNotFound /> : <AnalyticsLoader id={id} />}</AppLayout>;
}

function AnalyticsLoader({ id }: { id: number }) {
  const { t } = useLingui();
  const analytics = useQuery(analyticsOptions(id));
  if (analytics.isError && isNotFound(analytics.error)) return <CampaignNotFound />;
  if (analytics.data) return <AnalyticsView analytics={analytics.data} />;
  if (analytics.isError) {
    return (
      <PageLoadError
        message={errorMessage(analytics.error, t`Failed to load analytics.`)}
        retry={() => void analytics.refetch()}
      />
    );
  }
  return <AnalyticsSkeleton />;
}

function AnalyticsSkeleton() {
  return (
    <LoadingPlaceholder className="mx-auto w-full max-w-6xl px-4 py-8">
      <div className="h-4 w-32 rounded bg-slate-200" />
      <div className="mt-4 h-8 w-3/4 rounded bg-slate-200" />
      <div className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-5">
        {[1, 2, 3, 4, 5].map((key) => (
          <div key={key} className="h-20 rounded-xl bg-slate-200" />
        ))}
      </div>
      <div className="mt-8 h-72 rounded-xl bg-slate-200" />
    </LoadingPlaceholder>
  );
}

const card = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

function AnalyticsView({ analytics }: { analytics: Analytics }) {
  const { t, i18n } = useLingui();
  const id = analytics.campaign_id;
  const day = (iso: string) => formatCalendarDate(iso, i18n.locale);
  const stats: [string, string, ReactNode][] = [
    [
      t`Pledged`,
      formatKsh(analytics.pledged_total),
      <Trans key="goal">of {formatKsh(analytics.goal)} goal</Trans>,
    ],
    [
      t`Paid`,
      formatKsh(analytics.paid_total),
      <Plural
        key="donations"
        value={analytics.donation_count}
        one="with # donation"
        other="with # donations"
      />,
    ],
    [t`Page views`, i18n.number(analytics.views), null],
    [t`Unique visitors`, i18n.number(analytics.visitors), <Trans key="daily">counted per day</Trans>],
    [
      t`Conversion`,
      analytics.conversion_percent === null ? "–" : formatPercent(analytics.conversion_percent, i18n.locale),
      analytics.conversion_percent === null ? (
        <Trans key="none">No visits counted yet</Trans>
      ) : (
        <Trans key="share">of visitors pledged or donated</Trans>
      ),
    ],
  ];

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:py-10">
      <Link href={`/campaign/${id}`} className="text-sm font-medium text-brand-700 hover:underline">
        <span aria-hidden="true">← </span>
        <Trans>Back to the campaign</Trans>
      </Link>
      <div className="mt-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
            <Trans>Analytics</Trans>
          </h1>
          <p className="mt-1 text-slate-700">{analytics.title}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={`/api/pledges/export.csv?campaign_id=${id}`} download className={outlineButton}>
            <Trans>Export pledges (CSV)</Trans>
          </a>
          <a href={`/api/donations/export.csv?campaign_id=${id}`} download className={outlineButton}>
            <Trans>Export donations (CSV)</Trans>
          </a>
          <a href={`/api/campaigns/${id}/analytics.csv`} download className={outlineButton}>
            <Trans>Export analytics by month (CSV)</Trans>
          </a>
        </div>
      </div>

      <section aria-labelledby="analytics-overview" className="mt-6">
        <h2 id="analytics-overview" className="sr-only">
          <Trans>Overview</Trans>
        </h2>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          {stats.map(([label, value, detail]) => (
            <div key={label} className={card}>
              <dt className="text-sm font-medium text-slate-600">{label}</dt>
              <dd className="mt-1 text-xl font-bold text-slate-900">{value}</dd>
              {detail && <dd className="text-xs text-slate-600">{detail}</dd>}
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="analytics-over-time" className={`${card} mt-6`}>
        <h2 id="analytics-over-time" className="text-lg font-semibold text-slate-900">
          <Trans>Pledged and paid over time</Trans>
        </h2>
        <p className="text-sm text-slate-600">
          <Trans>Totals to date each day, against the goal of {formatKsh(analytics.goal)}.</Trans>
        </p>
        <div className="mt-4">
          <CumulativeChart days={analytics.days} goal={analytics.goal} />
        </div>
        <DaysTable analytics={analytics} day={day} />
      </section>

      <PlanMonths months={analytics.plan_months} />

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="analytics-status" className={card}>
          <h2 id="analytics-status" className="text-lg font-semibold text-slate-900">
            <Trans>Pledges by status</Trans>
          </h2>
          <Bars
            rows={analytics.pledges_by_status.map((row) => ({
              key: row.status,
              label: row.label,
              amount: row.amount,
              count: <Plural value={row.count} one="# pledge" other="# pledges" />,
            }))}
          />
        </section>
        <section aria-labelledby="analytics-methods" className={card}>
          <h2 id="analytics-methods" className="text-lg font-semibold text-slate-900">
            <Trans>Payments by method</Trans>
          </h2>
          <Bars
            rows={analytics.payments_by_method.map((row) => ({
              key: row.method,
              label: row.label,
              amount: row.amount,
              count: <Plural value={row.count} one="# payment" other="# payments" />,
            }))}
          />
        </section>
      </div>

      <section aria-labelledby="analytics-top-days" className={`${card} mt-6`}>
        <h2 id="analytics-top-days" className="text-lg font-semibold text-slate-900">
          <Trans>Top days</Trans>
        </h2>
        {analytics.top_days.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            <Trans>No pledges or donations yet.</Trans>
          </p>
        ) : (
          <ol className="mt-3 divide-y divide-slate-100">
            {analytics.top_days.map((top) => (
              <li key={top.day} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
                <time dateTime={top.day} className="font-medium text-slate-900">
                  {day(top.day)}
                </time>
                <span className="text-sm text-slate-700">
                  <Trans>
                    {formatKsh(top.pledged)} pledged, {formatKsh(top.donated)} donated,{" "}
                    <Plural value={top.views} one="# view" other="# views" />
                  </Trans>
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** Amounts as bars; the count and the amount are written out, so the bars need no reading. */
function Bars({ rows }: { rows: { key: string; label: string; amount: number; count: ReactNode }[] }) {
  const largest = Math.max(0, ...rows.map((row) => row.amount));
  return (
    <ul className="mt-3 space-y-3">
      {rows.map((row) => (
        <li key={row.key}>
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <span className="font-medium text-slate-900">{row.label}</span>
            <span className="text-slate-700">
              {formatKsh(row.amount)} <span className="text-slate-600">({row.count})</span>
            </span>
          </div>
          <div className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
            <div className="h-full bg-brand-600" style={{ width: `${barPercent(row.amount, largest)}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The chart's figures for screen readers and anyone who prefers numbers: the days something happened. */
function DaysTable({ analytics, day }: { analytics: Analytics; day(iso: string): string }) {
  const { t, i18n } = useLingui();
  const rows = activeDays(analytics.days);
  if (rows.length === 0) {
    return (
      <p className="mt-4 text-sm text-slate-600">
        <Trans>No pledges, payments or views yet.</Trans>
      </p>
    );
  }
  const cell = "px-3 py-2 text-right whitespace-nowrap";
  return (
    // Scrolls sideways on a phone; focusable so keyboard users can scroll it too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className="mt-4 overflow-x-auto" aria-label={t`Figures by day`} tabIndex={0}>
      <table className="w-full text-sm">
        <caption className="sr-only">
          <Trans>Pledged, paid, views and visitors on each day with activity</Trans>
        </caption>
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 text-left">
              <Trans>Day</Trans>
            </th>
            <th scope="col" className={cell}>
              <Trans>Pledged</Trans>
            </th>
            <th scope="col" className={cell}>
              <Trans>Paid</Trans>
            </th>
            <th scope="col" className={cell}>
              <Trans>Pledged to date</Trans>
            </th>
            <th scope="col" className={cell}>
              <Trans>Paid to date</Trans>
            </th>
            <th scope="col" className={cell}>
              <Trans>Views</Trans>
            </th>
            <th scope="col" className={cell}>
              <Trans>Visitors</Trans>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.day}>
              <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap text-slate-900">
                <time dateTime={row.day}>{day(row.day)}</time>
              </th>
              <td className={cell}>{formatKsh(row.pledged)}</td>
              <td className={cell}>{formatKsh(row.paid)}</td>
              <td className={cell}>{formatKsh(row.pledged_cumulative)}</td>
              <td className={cell}>{formatKsh(row.paid_cumulative)}</td>
              <td className={cell}>{i18n.number(row.views)}</td>
              <td className={cell}>{i18n.number(row.visitors)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
