import { Trans, useLingui } from "@lingui/react/macro";
import { useContext, useId, useState } from "react";
import { outlineButton } from "@/components/buttonStyles";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";

import { formatKsh } from "@/lib/money";
import { formatDay } from "./format";
import { LoadFailed } from "./LoadFailed";
import {
  type UnmatchedPayment,
  useAssignPayment,
  usePledgeList,
  useUnmatchedPayments,
} from "./managementApi";
import { MayAct } from "./mayAct";

/**
 * Paybill payments whose account number is no pledge code, each with a way to assign it to its pledge
 * (the likely one offered first). Shows nothing when every payment matched.
 */
export function UnmatchedPayments({ campaignId }: { campaignId: number }) {
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
  const suggested = payment.suggested_pledge;
  const assign = useAssignPayment(campaignId);
  // Awaited rather than given callbacks: once assigned, the payment leaves the list and this row unmounts.
  const assignTo = async (pledgeId: number) => {
    try {
      const pledge = await assign.mutateAsync({ pledgeId, reference: payment.reference });
      const { name, code } = pledge;
      // A pledge may carry no name (the giver left it out): then its code alone names it.
      toast({
        title: name
          ? t`Payment assigned to ${name}'s pledge (${code}).`
          : t`Payment assigned to pledge ${code}.`,
      });
    } catch (error) {
      toast({ title: errorMessage(error), variant: "destructive" });
    }
  };
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
          onClick={() => void assignTo(suggested.id)}
          className={outlineButton}
        >
          <SuggestedPledgeLabel pledge={suggested} />
        </button>
      ) : (
        <PledgePicker
          campaignId={campaignId}
          busy={assign.isPending}
          onPick={(pledgeId) => void assignTo(pledgeId)}
        />
      )}
    </li>
  );
}

/** The likely pledge, by its giver's name when it has one and always by its code and what is left
 * to pay: "Assign to (A2QSH9R)" named no one. */
function SuggestedPledgeLabel({ pledge }: { pledge: NonNullable<UnmatchedPayment["suggested_pledge"]> }) {
  const { name, code } = pledge;
  const left = formatKsh(pledge.remaining_amount);
  return name ? (
    <Trans>
      Assign to {name}'s pledge {code} ({left} left)
    </Trans>
  ) : (
    <Trans>
      Assign to pledge {code} ({left} left)
    </Trans>
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
      className="flex min-w-0 items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen) onPick(Number(chosen));
      }}
    >
      {/* The select shrinks to the row: its longest option would otherwise widen the page on a phone. */}
      <div className="min-w-0 flex-1">
        <label htmlFor={selectId} className="block text-xs font-medium text-slate-700">
          <Trans>Pledge</Trans>
        </label>
        <select
          id={selectId}
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className="w-full rounded-md border border-slate-300 bg-white px-2 py-2 text-sm"
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
