import { Trans, useLingui } from "@lingui/react/macro";
import { useContext, useState } from "react";
import { outlineButton } from "@/components/buttonStyles";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { formatKsh } from "@/lib/money";
import {
  CancelPledgeDialog,
  CorrectPledgeDialog,
  PledgeHistoryDialog,
  RestorePledgeDialog,
} from "./CorrectionDialogs";
import { formatDay } from "./format";
import { ConfirmPaymentDialog, RecordPaymentDialog } from "./ManageDialogs";
import type { ManagedPledge } from "./managementApi";
import { MayAct } from "./mayAct";
import { PlanDialog, PlanStanding } from "./PlanParts";
import { PledgeStatusBadge } from "./PledgeStatusBadge";
import { RemindButton } from "./Reminders";

type Action = {
  kind: "confirm" | "record" | "plan" | "correct" | "cancel" | "restore" | "history";
  pledge: ManagedPledge;
};

/**
 * Pledges with their details, payments and status, and the confirm and record actions: a table from
 * the medium breakpoint up, a card per pledge on phones (where most organizers read it).
 */
export function PledgeTable({ pledges }: { pledges: ManagedPledge[] | undefined }) {
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
              <div className="text-right">
                {pledge.status && <PledgeStatusBadge status={pledge.status} />}
                {pledge.plan && !pledge.cancelled_at && <PlanStanding plan={pledge.plan} />}
              </div>
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
                <td className="px-3 py-2">
                  {pledge.status && <PledgeStatusBadge status={pledge.status} />}
                  {pledge.plan && !pledge.cancelled_at && <PlanStanding plan={pledge.plan} />}
                </td>
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
      {action?.kind === "plan" && <PlanDialog pledge={action.pledge} onClose={() => setAction(null)} />}
      {action?.kind === "correct" && (
        <CorrectPledgeDialog pledge={action.pledge} onClose={() => setAction(null)} />
      )}
      {action?.kind === "cancel" && (
        <CancelPledgeDialog pledge={action.pledge} others={pledges} onClose={() => setAction(null)} />
      )}
      {action?.kind === "restore" && (
        <RestorePledgeDialog pledge={action.pledge} onClose={() => setAction(null)} />
      )}
      {action?.kind === "history" && (
        <PledgeHistoryDialog pledge={action.pledge} onClose={() => setAction(null)} />
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
      {/* A pledge card from the ushers' desk may carry a phone only (and an old one an e-mail only). */}
      {pledge.email && (
        <a href={`mailto:${pledge.email}`} className="block text-brand-700 hover:underline">
          {pledge.email}
        </a>
      )}
      {pledge.phone && (
        <a href={`tel:${pledge.phone}`} className="block text-slate-700 hover:underline">
          {pledge.phone}
        </a>
      )}
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

const linkButton = "py-1 text-sm font-medium whitespace-nowrap text-brand-700 hover:underline";

/** Confirm (disabled once fully paid), record a payment, remind, set a plan, correct, cancel or restore, and
 * the history. */
function PledgeActions({ pledge, onAction }: { pledge: ManagedPledge; onAction(action: Action): void }) {
  const confirmed = pledge.payment_confirmed ?? false;
  const mayAct = useContext(MayAct);
  if (!mayAct) return null;
  const history = (
    <button type="button" onClick={() => onAction({ kind: "history", pledge })} className={linkButton}>
      <Trans>History</Trans>
      <span className="sr-only">: {pledge.name}</span>
    </button>
  );
  if (pledge.cancelled_at) {
    return (
      <>
        <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-800">
          <Trans>Cancelled</Trans>
        </span>
        <button type="button" onClick={() => onAction({ kind: "restore", pledge })} className={linkButton}>
          <Trans>Restore</Trans>
          <span className="sr-only">: {pledge.name}</span>
        </button>
        {history}
      </>
    );
  }
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
        <button type="button" onClick={() => onAction({ kind: "record", pledge })} className={linkButton}>
          <Trans>Record payment</Trans>
          <span className="sr-only">: {pledge.name}</span>
        </button>
      )}
      <RemindButton pledge={pledge} />
      {!confirmed && (
        <button type="button" onClick={() => onAction({ kind: "plan", pledge })} className={linkButton}>
          {pledge.plan ? <Trans>Change plan</Trans> : <Trans>Set instalment plan</Trans>}
          <span className="sr-only">: {pledge.name}</span>
        </button>
      )}
      <button type="button" onClick={() => onAction({ kind: "correct", pledge })} className={linkButton}>
        <Trans>Correct amount</Trans>
        <span className="sr-only">: {pledge.name}</span>
      </button>
      <button type="button" onClick={() => onAction({ kind: "cancel", pledge })} className={linkButton}>
        <Trans>Cancel pledge</Trans>
        <span className="sr-only">: {pledge.name}</span>
      </button>
      {history}
    </>
  );
}
