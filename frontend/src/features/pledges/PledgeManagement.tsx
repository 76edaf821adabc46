import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useDeferredValue, useId, useState } from "react";
import { outlineButton } from "@/components/buttonStyles";
import { Disclosure } from "@/components/Disclosure";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { toast } from "@/components/toast";
import { api, unwrap } from "@/lib/api/client";
import { errorMessage } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { unexpected } from "./api";
import { formatDay } from "./format";
import { LoadFailed } from "./LoadFailed";
import { ConfirmPaymentDialog, RecordPaymentDialog } from "./ManageDialogs";
import {
  type ManagedPledge,
  PLEDGES_PAGE_SIZE,
  RECENT_PLEDGES,
  type UnmatchedPayment,
  usePledgeList,
  usePledgeSummary,
  useRefreshCampaignPledges,
  useUnmatchedPayments,
} from "./managementApi";
import { PledgeStatusBadge } from "./PledgeStatusBadge";
import { RemindButton, ReminderSettingsPanel } from "./Reminders";

/** Whether the viewer may act (owners, treasurers, admins) or only read (viewers): the server decides both. */
const MayAct = createContext(false);

/**
 * Pledge Management on /campaign/{id}, for the campaign's team but ushers, and admins (the server
 * answers 403 to anyone else): the summary, the 10 newest pledges with confirm, record and remind
 * actions, payments that matched no pledge code, every pledge (searchable), the CSV exports and the
 * reminder settings. Viewers (``canAct`` false) read it without the actions. A lazy chunk of its own.
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
  const card = (label: ReactNode, value: number | undefined, detail: ReactNode) => (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
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
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-busy={!data} aria-label={t`Pledge summary`}>
      {card(
        <Trans>Total pledged</Trans>,
        data?.pledged_sum,
        <Plural value={data?.count ?? 0} one="# pledge" other="# pledges" />,
      )}
      {card(
        <Trans>Confirmed</Trans>,
        data?.confirmed_sum,
        <Plural value={data?.confirmed_count ?? 0} one="# pledge" other="# pledges" />,
      )}
      {card(
        <Trans>Pending</Trans>,
        data?.pending_sum,
        <Plural value={data?.pending_count ?? 0} one="# pledge" other="# pledges" />,
      )}
      {card(
        <Trans>Paid to date</Trans>,
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

type Action = { kind: "confirm" | "record"; pledge: ManagedPledge };

/**
 * Pledges with their details, payments and status, and the confirm and record actions: a table from
 * the medium breakpoint up, a card per pledge on phones (where most organizers read it).
 */
function PledgeTable({ pledges }: { pledges: ManagedPledge[] | undefined }) {
  const { i18n } = useLingui();
  const [action, setAction] = useState<Action | null>(null);
  if (!pledges) return <LoadingPlaceholder className="mt-2 h-40 rounded-lg bg-slate-100" />;
  if (pledges.length === 0) {
    return (
      <p className="mt-2 text-sm text-slate-600">
        <Trans>No pledges yet.</Trans>
      </p>
    );
  }
  const heading = "px-3 py-2 text-left font-medium whitespace-nowrap";
  const day = (pledge: ManagedPledge) => (
    <time dateTime={pledge.created_at}>{formatDay(pledge.created_at, i18n.locale)}</time>
  );
  return (
    <>
      <ul className="mt-2 space-y-3 md:hidden">
        {pledges.map((pledge) => (
          <li key={pledge.id} className="rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex items-start justify-between gap-3">
              <PledgerName pledge={pledge} />
              {pledge.status && <PledgeStatusBadge status={pledge.status} />}
            </div>
            <Contact pledge={pledge} />
            <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
              <div>
                <dt className="text-slate-600">
                  <Trans>Amount</Trans>
                </dt>
                <dd className="font-semibold text-slate-900">{formatKsh(pledge.amount)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">
                  <Trans>Paid</Trans>
                </dt>
                <dd className="text-slate-900">
                  <Paid pledge={pledge} />
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">
                  <Trans>Date</Trans>
                </dt>
                <dd className="text-slate-900">{day(pledge)}</dd>
              </div>
            </dl>
            <div className="mt-3 flex flex-wrap items-center gap-3">
              <PledgeActions pledge={pledge} onAction={setAction} />
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-2 hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block">
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className={heading}>
                <Trans>Name</Trans>
              </th>
              <th scope="col" className={heading}>
                <Trans>Contact</Trans>
              </th>
              <th scope="col" className={`${heading} text-right`}>
                <Trans>Amount</Trans>
              </th>
              <th scope="col" className={`${heading} text-right`}>
                <Trans>Paid</Trans>
              </th>
              <th scope="col" className={heading}>
                <Trans>Status</Trans>
              </th>
              <th scope="col" className={heading}>
                <Trans>Date</Trans>
              </th>
              <th scope="col" className={heading}>
                <span className="sr-only">
                  <Trans>Actions</Trans>
                </span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {pledges.map((pledge) => (
              <tr key={pledge.id}>
                <td className="px-3 py-2">
                  <PledgerName pledge={pledge} />
                </td>
                <td className="px-3 py-2">
                  <Contact pledge={pledge} />
                </td>
                <td className="px-3 py-2 text-right font-semibold whitespace-nowrap">
                  {formatKsh(pledge.amount)}
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap">
                  <Paid pledge={pledge} />
                </td>
                <td className="px-3 py-2">{pledge.status && <PledgeStatusBadge status={pledge.status} />}</td>
                <td className="px-3 py-2 whitespace-nowrap text-slate-700">{day(pledge)}</td>
                <td className="px-3 py-2">
                  <div className="flex flex-col items-start gap-1">
                    <PledgeActions pledge={pledge} onAction={setAction} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {action?.kind === "confirm" && (
        <ConfirmPaymentDialog pledge={action.pledge} onClose={() => setAction(null)} />
      )}
      {action?.kind === "record" && (
        <RecordPaymentDialog pledge={action.pledge} onClose={() => setAction(null)} />
      )}
    </>
  );
}

function PledgerName({ pledge }: { pledge: ManagedPledge }) {
  return (
    <div className="min-w-0">
      <p className="font-medium text-slate-900">{pledge.name}</p>
      <p className="font-mono text-xs text-slate-600">{pledge.code}</p>
      {pledge.is_anonymous && (
        <p className="text-xs text-slate-600">
          <Trans>Anonymous to the public</Trans>
        </p>
      )}
    </div>
  );
}

function Contact({ pledge }: { pledge: ManagedPledge }) {
  return (
    <div className="text-sm break-all">
      <a href={`mailto:${pledge.email}`} className="block text-brand-700 hover:underline">
        {pledge.email}
      </a>
      <a href={`tel:${pledge.phone}`} className="block text-slate-700 hover:underline">
        {pledge.phone}
      </a>
    </div>
  );
}

function Paid({ pledge }: { pledge: ManagedPledge }) {
  const over = pledge.overpaid_amount ?? 0;
  return (
    <>
      {formatKsh(pledge.paid_amount ?? 0)}
      {over > 0 && (
        <span className="block text-xs text-slate-600">
          <Trans>{formatKsh(over)} over</Trans>
        </span>
      )}
      {pledge.confirmed_by && (
        <span className="block text-xs text-slate-600">
          <Trans>confirmed by {pledge.confirmed_by}</Trans>
        </span>
      )}
    </>
  );
}

/** Confirm (one way, disabled once confirmed), record a cash or bank payment, and remind the pledger. */
function PledgeActions({ pledge, onAction }: { pledge: ManagedPledge; onAction(action: Action): void }) {
  const confirmed = pledge.payment_confirmed ?? false;
  const mayAct = useContext(MayAct);
  if (!mayAct) return null;
  return (
    <>
      <button
        type="button"
        disabled={confirmed}
        onClick={() => onAction({ kind: "confirm", pledge })}
        className={`${outlineButton} whitespace-nowrap`}
      >
        {confirmed ? <Trans>Confirmed</Trans> : <Trans>Confirm payment</Trans>}
        <span className="sr-only">: {pledge.name}</span>
      </button>
      {!confirmed && (
        <button
          type="button"
          onClick={() => onAction({ kind: "record", pledge })}
          className="py-1 text-sm font-medium whitespace-nowrap text-brand-700 hover:underline"
        >
          <Trans>Record payment</Trans>
          <span className="sr-only">: {pledge.name}</span>
        </button>
      )}
      <RemindButton pledge={pledge} />
    </>
  );
}

function UnmatchedPayments({ campaignId }: { campaignId: number }) {
  const unmatched = useUnmatchedPayments(campaignId);
  if (unmatched.isError) return <LoadFailed error={unmatched.error} retry={() => void unmatched.refetch()} />;
  if (!unmatched.data?.length) return null;
  return (
    <div>
      <h3 className="font-semibold text-slate-900">
        <Trans>Unmatched payments</Trans>
      </h3>
      <p className="text-sm text-slate-600">
        <Trans>
          These paybill payments carry an account number that is no pledge code. Assign each to the pledge it
          was meant for.
        </Trans>
      </p>
      <ul className="mt-2 space-y-2">
        {unmatched.data.map((payment) => (
          <UnmatchedRow key={payment.reference} campaignId={campaignId} payment={payment} />
        ))}
      </ul>
    </div>
  );
}

function UnmatchedRow({ campaignId, payment }: { campaignId: number; payment: UnmatchedPayment }) {
  const { t, i18n } = useLingui();
  const refresh = useRefreshCampaignPledges(campaignId);
  const suggested = payment.suggested_pledge;
  const assign = useMutation({
    mutationFn: async (pledgeId: number) =>
      unwrap(
        await api.POST("/api/pledges/{pledge_id}/assign-payment", {
          params: { path: { pledge_id: pledgeId } },
          body: { reference: payment.reference },
        }),
        unexpected(),
      ),
    onSuccess: async (pledge) => {
      toast({ title: t`Payment assigned to ${pledge.name}'s pledge (${pledge.code}).` });
      await refresh();
    },
    onError: (error) => toast({ title: errorMessage(error, unexpected()), variant: "destructive" }),
  });
  const amount = formatKsh(payment.amount);
  const account = payment.account_reference;
  const received = payment.received_at && formatDay(payment.received_at, i18n.locale);
  const mayAct = useContext(MayAct);
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="text-sm">
        <p className="font-semibold text-slate-900">
          <Trans>
            {amount} with account number <span className="font-mono">{account}</span>
          </Trans>
        </p>
        <p className="text-slate-700">
          {[payment.payer_name, payment.mpesa_receipt, received].filter(Boolean).join(" · ")}
        </p>
      </div>
      {!mayAct ? null : suggested ? (
        <button
          type="button"
          disabled={assign.isPending}
          onClick={() => assign.mutate(suggested.id)}
          className={outlineButton}
        >
          <Trans>
            Assign to {suggested.name} ({suggested.code})
          </Trans>
        </button>
      ) : (
        <PledgePicker
          campaignId={campaignId}
          busy={assign.isPending}
          onPick={(pledgeId) => assign.mutate(pledgeId)}
        />
      )}
    </li>
  );
}

/** Without a likely pledge, the organizer picks one of the newest unconfirmed pledges. */
function PledgePicker({
  campaignId,
  busy,
  onPick,
}: {
  campaignId: number;
  busy: boolean;
  onPick(pledgeId: number): void;
}) {
  const { t } = useLingui();
  const [chosen, setChosen] = useState("");
  const selectId = useId();
  const candidates = usePledgeList(campaignId, "", 100);
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen) onPick(Number(chosen));
      }}
    >
      <div>
        <label htmlFor={selectId} className="block text-xs font-medium text-slate-700">
          <Trans>Pledge</Trans>
        </label>
        <select
          id={selectId}
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm"
        >
          <option value="">{t`Choose a pledge`}</option>
          {candidates.data?.pages[0]?.pledges
            .filter((pledge) => !pledge.payment_confirmed)
            .map((pledge) => (
              <option key={pledge.id} value={pledge.id}>
                {pledge.name} · {pledge.code} · {formatKsh(pledge.remaining_amount ?? 0)}
              </option>
            ))}
        </select>
      </div>
      <button type="submit" disabled={!chosen || busy} className={outlineButton}>
        <Trans>Assign</Trans>
      </button>
    </form>
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
  const search = useDeferredValue(q.trim());
  const list = usePledgeList(campaignId, search, PLEDGES_PAGE_SIZE);
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
