import { Trans, useLingui } from "@lingui/react/macro";
import type { Schemas } from "@/lib/api/client";
import { formatKes } from "@/lib/money";

type Figures = Pick<
  Schemas["DashboardOut"],
  "grant_matches" | "active_campaigns" | "total_pledged" | "total_paid"
>;

/** Grant matches, active campaigns, and the pledged and paid sums, from the one dashboard call. */
export function StatCards({
  figures,
  loading,
  failed,
  onRetry,
}: {
  figures: Figures | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
}) {
  const { t } = useLingui();
  if (failed) {
    return (
      <div role="alert" className="mt-8 rounded-lg bg-red-50 p-4 text-red-800">
        <p>
          <Trans>Failed to load dashboard data</Trans>
        </p>
        <RetryButton onClick={onRetry} />
      </div>
    );
  }
  const stats: [string, string | undefined][] = [
    [t`Grant Matches`, figures && String(figures.grant_matches)],
    [t`Active Campaigns`, figures && String(figures.active_campaigns)],
    [t`Total Pledges`, figures && formatKes(figures.total_pledged)],
    [t`Paid so far`, figures && formatKes(figures.total_paid)],
  ];
  return (
    <section aria-labelledby="overview" className="mt-8">
      <h2 id="overview" className="sr-only">
        <Trans>Overview</Trans>
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-busy={loading}>
        {stats.map(([label, value]) => (
          <div key={label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm font-medium text-slate-600">{label}</dt>
            <dd className="mt-1 text-xl font-bold text-slate-900 sm:text-2xl">
              {value ?? <span className="block h-7 w-24 animate-pulse rounded bg-slate-200" />}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function RetryButton({ onClick }: { onClick(): void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="mt-2 rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-100"
    >
      <Trans>Try again</Trans>
    </button>
  );
}
