import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { type ReactNode, useDeferredValue, useState } from "react";
import { outlineButton } from "@/components/buttonStyles";
import { Disclosure } from "@/components/Disclosure";
import { CheckboxField } from "@/components/FieldControls";
import { FigureHint } from "@/components/FigureHint";
import { formatKsh } from "@/lib/money";
import { LoadFailed } from "./LoadFailed";
import { PLEDGES_PAGE_SIZE, RECENT_PLEDGES, usePledgeList, usePledgeSummary } from "./managementApi";
import { MayAct } from "./mayAct";
import { PledgeTable } from "./PledgeTable";
import { ReminderSettingsPanel } from "./Reminders";
import { UnmatchedPayments } from "./UnmatchedPayments";

/**
 * Pledge Management on /campaign/{id}, for the campaign's team but ushers, and admins (the server
 * answers 403 to anyone else): the summary, the 10 newest pledges with confirm, record and remind
 * actions, payments that matched no pledge code, every pledge (searchable), the CSV exports and the
 * reminder settings. Viewers (`canAct` false) read it without the actions. A lazy chunk of its own.
 */
export default function PledgeManagement({ campaignId, canAct }: { campaignId: number; canAct: boolean }) {
  return (
    <MayAct.Provider value={canAct}>
      <section aria-labelledby="pledge-management-heading" className="space-y-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="pledge-management-heading" className="text-xl font-semibold text-slate-900">
              <Trans>Pledge Management</Trans>
            </h2>
            <p className="text-sm text-slate-600">
              <Trans>
                Only the campaign's team and the site admins see this section, with every pledger's details.
              </Trans>
            </p>
            {!canAct && (
              <p className="mt-1 text-sm font-medium text-amber-900">
                <Trans>As a viewer you can read the pledges but not confirm, record, assign or remind.</Trans>
              </p>
            )}
          </div>
          {canAct && (
            <div className="flex flex-wrap gap-2">
              <a
                href={`/api/pledges/export.csv?campaign_id=${campaignId}`}
                download
                className={outlineButton}
              >
                <Trans>Export pledges (CSV)</Trans>
              </a>
              <a
                href={`/api/donations/export.csv?campaign_id=${campaignId}`}
                download
                className={outlineButton}
              >
                <Trans>Export donations (CSV)</Trans>
              </a>
            </div>
          )}
        </div>
        <Summary campaignId={campaignId} />
        <RecentPledges campaignId={campaignId} />
        <UnmatchedPayments campaignId={campaignId} />
        <AllPledges campaignId={campaignId} />
        {canAct && <ReminderSettingsPanel campaignId={campaignId} />}
      </section>
    </MayAct.Provider>
  );
}

function Summary({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  const summary = usePledgeSummary(campaignId);
  if (summary.isError) return <LoadFailed error={summary.error} retry={() => void summary.refetch()} />;
  const data = summary.data;
  const card = (label: string, explanation: string, value: number | undefined, detail: ReactNode) => (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">
        {label}
        <FigureHint figure={label} explanation={explanation} />
      </dt>
      <dd className="mt-1 text-xl font-bold text-slate-900">
        {value === undefined ? (
          <span className="inline-block h-6 w-24 animate-pulse rounded bg-slate-200" />
        ) : (
          formatKsh(value)
        )}
      </dd>
      {data && <dd className="text-xs text-slate-600">{detail}</dd>}
    </div>
  );
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5" aria-busy={!data} aria-label={t`Pledge summary`}>
      {card(
        t`Total pledged`,
        t`Every pledge not cancelled, paid or not.`,
        data?.pledged_sum,
        <Plural value={data?.count ?? 0} one="# pledge" other="# pledges" />,
      )}
      {card(
        t`Confirmed`,
        t`Pledges paid in full (or more).`,
        data?.confirmed_sum,
        <Plural value={data?.confirmed_count ?? 0} one="# pledge" other="# pledges" />,
      )}
      {card(
        t`Not started`,
        t`Pledges with nothing paid yet: the amount pledged.`,
        data?.not_started_sum,
        <Plural value={data?.not_started_count ?? 0} one="# pledge" other="# pledges" />,
      )}
      {card(
        t`Part-paid`,
        t`Pledges with some paid: the amount pledged, and what they still owe.`,
        data?.partly_paid_sum,
        <>
          <Plural value={data?.partly_paid_count ?? 0} one="# pledge" other="# pledges" />
          {", "}
          <Trans>{formatKsh(data?.partly_paid_outstanding_sum ?? 0)} still owed</Trans>
        </>,
      )}
      {card(
        t`Paid to date`,
        t`Every payment towards these pledges, overpayments included; gifts without a pledge are not in it.`,
        data?.paid_sum,
        <Trans>{formatKsh(data?.outstanding_sum ?? 0)} still to come</Trans>,
      )}
    </dl>
  );
}

function RecentPledges({ campaignId }: { campaignId: number }) {
  const list = usePledgeList(campaignId, "", RECENT_PLEDGES);
  const pledges = list.data?.pages[0]?.pledges;
  return (
    <div>
      <h3 className="font-semibold text-slate-900">
        <Trans>Recent pledges</Trans>
      </h3>
      {list.isError ? (
        <LoadFailed error={list.error} retry={() => void list.refetch()} />
      ) : (
        <PledgeTable pledges={pledges} />
      )}
    </div>
  );
}

function AllPledges({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  return (
    <Disclosure label={(open) => (open ? t`Hide all pledges` : t`View all pledges`)}>
      {() => <SearchablePledges campaignId={campaignId} />}
    </Disclosure>
  );
}

function SearchablePledges({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  const [q, setQ] = useState("");
  const [behind, setBehind] = useState(false);
  const search = useDeferredValue(q.trim());
  const list = usePledgeList(campaignId, search, PLEDGES_PAGE_SIZE, behind);
  const pledges = list.data?.pages.flatMap((page) => page.pledges);
  const total = list.data?.pages[0]?.total ?? 0;
  return (
    <div className="mt-3">
      <input
        type="search"
        value={q}
        onChange={(event) => setQ(event.target.value)}
        placeholder={t`Name, email, phone or pledge code`}
        aria-label={t`Search pledges`}
        className="block w-full max-w-sm rounded-md border border-slate-300 px-3 py-2 text-base"
      />
      <CheckboxField
        className="mt-3"
        label={<Trans>Only pledgers behind their instalment plan</Trans>}
        checked={behind}
        onChange={(event) => setBehind(event.target.checked)}
      />
      {list.data && (
        <p className="mt-2 text-sm text-slate-600" aria-live="polite">
          <Plural value={total} one="# pledge" other="# pledges" />
        </p>
      )}
      {list.isError ? (
        <LoadFailed error={list.error} retry={() => void list.refetch()} />
      ) : (
        <PledgeTable pledges={pledges} />
      )}
      {list.hasNextPage && (
        <button
          type="button"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
          className={`${outlineButton} mt-3`}
        >
          {list.isFetchingNextPage ? <Trans>Loading...</Trans> : <Trans>Load more</Trans>}
        </button>
      )}
    </div>
  );
}
