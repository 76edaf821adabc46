import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import type { Campaign } from "@/features/campaigns/api";
import { formatKsh } from "@/lib/money";
import { formatDay } from "./format";

type Entry = { id: number; name: string; amount: number; when: string | null; hiddenFromPublic: boolean };

/**
 * The campaign's latest pledges and donations, as the server shows them to this viewer: anonymous
 * ones as 'Anonymous' for the public; the organizer sees the names with a note that others do not.
 */
export default function CampaignActivity({ campaign }: { campaign: Campaign }) {
  const pledges = campaign.pledges.map((pledge) => ({
    id: pledge.id,
    name: pledge.name,
    amount: pledge.amount,
    when: pledge.created_at,
    hiddenFromPublic: pledge.details_visible && pledge.is_anonymous,
  }));
  const donations = campaign.donations.map((donation) => ({
    id: donation.id,
    name: donation.name,
    amount: donation.amount,
    when: donation.paid_at,
    hiddenFromPublic: donation.details_visible && donation.is_anonymous,
  }));
  return (
    <div className="grid gap-6 sm:grid-cols-2">
      <ActivityList
        id="recent-pledges"
        title={<Trans>Recent pledges</Trans>}
        empty={<Trans>No pledges yet. Be the first to pledge!</Trans>}
        entries={pledges}
      />
      <ActivityList
        id="recent-donations"
        title={<Trans>Recent donations</Trans>}
        empty={<Trans>No donations yet.</Trans>}
        entries={donations}
      />
    </div>
  );
}

function ActivityList({
  id,
  title,
  empty,
  entries,
}: {
  id: string;
  title: ReactNode;
  empty: ReactNode;
  entries: Entry[];
}) {
  const { i18n } = useLingui();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {entries.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {entries.map((entry) => (
            <li key={entry.id} className="flex items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">{entry.name}</p>
                <p className="text-xs text-slate-600">
                  {entry.when && (
                    // Phones' date names differ with their ICU version: hydration keeps the server's.
                    <time dateTime={entry.when} suppressHydrationWarning>
                      {formatDay(entry.when, i18n.locale)}
                    </time>
                  )}
                  {entry.hiddenFromPublic && (
                    <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-slate-700">
                      <Trans>Anonymous to the public</Trans>
                    </span>
                  )}
                </p>
              </div>
              <span className="shrink-0 font-semibold text-slate-900">{formatKsh(entry.amount)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
