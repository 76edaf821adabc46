import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { dangerButton, outlineButton, primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime } from "@/lib/kenyaTime";
import { formatKsh } from "@/lib/money";
import { parseRouteId } from "@/lib/routeId";
import {
  type CashReconciliation,
  type UsherCash,
  useCashReconciliation,
  useRecordCashCount,
  useReopenCash,
  useSignOffCash,
} from "./api";

/**
 * /campaign/{id}/events/{eventId}/cash: each usher's cash as their desk recorded it beside the cash
 * counted, the differences, and the treasurer's sign-off that freezes the counts. Owners and
 * treasurers count and sign off, viewers read; the server enforces each (desk/services.py).
 */
export default function CashReconciliationPage() {
  const params = useParams<{ id?: string; event?: string }>();
  const campaignId = parseRouteId(params.id);
  const eventId = parseRouteId(params.event);
  return (
    <AppLayout>
      <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6">
        {campaignId === null || eventId === null ? (
          <CampaignNotFound />
        ) : (
          <CashLoader campaignId={campaignId} eventId={eventId} />
        )}
      </div>
    </AppLayout>
  );
}

function CashLoader({ campaignId, eventId }: { campaignId: number; eventId: number }) {
  const cash = useCashReconciliation(eventId);
  if (cash.isError && cash.error instanceof ApiRequestError && cash.error.status === 404) {
    return <CampaignNotFound />;
  }
  if (cash.isError)
    return <PageLoadError message={errorMessage(cash.error)} retry={() => void cash.refetch()} />;
  if (!cash.data) return <PageSkeleton />;
  return <CashView campaignId={campaignId} cash={cash.data} />;
}

function CashView({ campaignId, cash }: { campaignId: number; cash: CashReconciliation }) {
  const { t, i18n } = useLingui();
  const when = (iso: string | null) => (iso ? formatKenyaDateTime(iso, i18n.locale) : "");
  const editable = cash.can_reconcile && !cash.signed_off && cash.event.state !== "scheduled";
  return (
    <>
      <header className="flex flex-col gap-2">
        <Link href={`/campaign/${campaignId}/events`} className="text-sm text-brand-700 underline">
          <Trans>Events of this campaign</Trans>
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">
          <Trans>Cash count: {cash.event.title}</Trans>
        </h1>
        <p className="text-slate-700" data-testid="cash-state">
          {cash.signed_off ? (
            <Trans>
              Signed off by {cash.signed_off_by} on {when(cash.signed_off_at)}: the counts are frozen.
            </Trans>
          ) : cash.event.state === "open" ? (
            <Trans>
              The event is still open: count as the envelopes come in, and sign off after the close.
            </Trans>
          ) : (
            <Trans>Not signed off yet: the counts can still be corrected.</Trans>
          )}
        </p>
        {!cash.signed_off && cash.reopened_at && (
          <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-800">
            <Trans>
              The last sign-off was withdrawn by {cash.reopened_by} on {when(cash.reopened_at)}:{" "}
              {cash.reopen_reason}. The count needs a new sign-off.
            </Trans>
          </p>
        )}
      </header>
      {cash.signed_off && cash.late_count > 0 && <LateWarning cash={cash} />}
      {cash.ushers.length === 0 ? (
        <p className="text-slate-700">
          <Trans>No one has recorded anything at this event's desk yet.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={t`Ushers`}>
          {cash.ushers.map((usher) => (
            <li key={usher.usher_key}>
              <UsherCount
                eventId={cash.event.id}
                usher={usher}
                editable={editable}
                signedOff={cash.signed_off}
              />
            </li>
          ))}
        </ul>
      )}
      <Totals cash={cash} />
      {cash.can_reconcile && !cash.signed_off && cash.event.state === "closed" && <SignOff cash={cash} />}
      {cash.can_reconcile && cash.signed_off && <Reopen eventId={cash.event.id} />}
    </>
  );
}

/** The difference in words, not only colour: 'Short by Ksh 200', 'Over by Ksh 100', 'Balanced'. */
function Difference({ difference }: { difference: number | null }) {
  if (difference === null) {
    return (
      <span className="text-slate-700">
        <Trans>Not counted yet</Trans>
      </span>
    );
  }
  if (difference < 0) {
    return (
      <span className="font-semibold text-red-800">
        <Trans>Short by {formatKsh(-difference)}</Trans>
      </span>
    );
  }
  if (difference > 0) {
    return (
      <span className="font-semibold text-amber-800">
        <Trans>Over by {formatKsh(difference)}</Trans>
      </span>
    );
  }
  return (
    <span className="font-semibold text-brand-800">
      <Trans>Balanced</Trans>
    </span>
  );
}

function UsherCount({
  eventId,
  usher,
  editable,
  signedOff,
}: {
  eventId: number;
  usher: UsherCash;
  editable: boolean;
  signedOff: boolean;
}) {
  const { t } = useLingui();
  const record = useRecordCashCount(eventId);
  const [counted, setCounted] = useState(usher.counted === null ? "" : String(usher.counted));
  const [note, setNote] = useState(usher.note);
  const [error, setError] = useState("");
  const typed = counted === "" ? null : Number(counted);
  const unsaved = typed !== usher.counted || note.trim() !== usher.note;
  // While a count is typed, its difference is shown before it is saved.
  const difference = typed === null ? usher.difference : typed - usher.recorded_total;
  const headingId = `usher-${usher.usher_key}`;

  const onSubmit = async (submitted: FormEvent) => {
    submitted.preventDefault();
    if (typed === null) {
      setError(t`Enter the cash counted, in whole shillings.`);
      return;
    }
    setError("");
    try {
      await record.mutateAsync({ usherKey: usher.usher_key, counted: typed, note });
      toast({ title: t`Count saved for ${usher.usher_name}` });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="font-semibold text-slate-900">
        {usher.usher_name}
      </h2>
      <p className="text-sm text-slate-700">
        <Trans>
          Recorded at the desk: {formatKsh(usher.recorded_total)} ·{" "}
          <Plural value={usher.recorded_count} one="# cash entry" other="# cash entries" />
        </Trans>
      </p>
      {usher.late_count > 0 && (
        <p className="mt-1 text-sm font-medium text-amber-900">
          <Trans>
            After the sign-off: <Plural value={usher.late_count} one="# more entry" other="# more entries" />,{" "}
            {formatKsh(usher.late_total)}
          </Trans>
        </p>
      )}
      {editable ? (
        <form
          className="mt-3 grid gap-3 sm:grid-cols-2"
          noValidate
          onSubmit={(event) => void onSubmit(event)}
        >
          <TextField
            label={t`Counted for ${usher.usher_name} (Ksh)`}
            inputMode="numeric"
            autoComplete="off"
            value={counted}
            error={error}
            onChange={(changed) => setCounted(changed.target.value.replace(/[^\d]/g, ""))}
          />
          <TextField
            label={t`Note for ${usher.usher_name}`}
            hint={t`Needed when the count is short or over.`}
            maxLength={300}
            autoComplete="off"
            value={note}
            onChange={(changed) => setNote(changed.target.value)}
          />
          <p className="text-sm sm:col-span-2" aria-live="polite">
            <Difference difference={difference} />
            {unsaved && usher.counted !== null && (
              <span className="text-slate-700">
                {" "}
                · <Trans>not saved yet</Trans>
              </span>
            )}
          </p>
          <button
            type="submit"
            className={`${outlineButton} sm:w-auto sm:justify-self-start`}
            disabled={record.isPending}
          >
            <Trans>Save the count for {usher.usher_name}</Trans>
          </button>
        </form>
      ) : (
        <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-700">
            <Trans>Counted</Trans>
          </dt>
          <dd className="text-slate-900">{usher.counted === null ? "—" : formatKsh(usher.counted)}</dd>
          <dt className="text-slate-700">
            <Trans>Difference</Trans>
          </dt>
          <dd>
            <Difference difference={usher.difference} />
          </dd>
          {usher.note && (
            <>
              <dt className="text-slate-700">
                <Trans>Note</Trans>
              </dt>
              <dd className="text-slate-900">{usher.note}</dd>
            </>
          )}
          {!signedOff && usher.counted_by && (
            <>
              <dt className="text-slate-700">
                <Trans>Counted by</Trans>
              </dt>
              <dd className="text-slate-900">{usher.counted_by}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}

function Totals({ cash }: { cash: CashReconciliation }) {
  return (
    <section aria-labelledby="totals-heading" className="rounded-lg bg-slate-50 p-4">
      <h2 id="totals-heading" className="font-semibold text-slate-900">
        <Trans>All ushers</Trans>
      </h2>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1" data-testid="cash-totals">
        <dt className="text-slate-700">
          <Trans>Recorded at the desk</Trans>
        </dt>
        <dd className="text-slate-900">
          {formatKsh(cash.recorded_total)} ·{" "}
          <Plural value={cash.recorded_count} one="# cash entry" other="# cash entries" />
        </dd>
        <dt className="text-slate-700">
          <Trans>Counted</Trans>
        </dt>
        <dd className="text-slate-900">{formatKsh(cash.counted_total)}</dd>
        <dt className="text-slate-700">
          <Trans>Difference</Trans>
        </dt>
        <dd>
          {cash.difference === null ? (
            <span className="text-slate-700">
              <Plural
                value={cash.uncounted}
                one="# usher with cash not counted yet"
                other="# ushers with cash not counted yet"
              />
            </span>
          ) : (
            <Difference difference={cash.difference} />
          )}
        </dd>
      </dl>
    </section>
  );
}

function LateWarning({ cash }: { cash: CashReconciliation }) {
  return (
    <section
      aria-labelledby="late-heading"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950"
      data-testid="cash-late"
    >
      <h2 id="late-heading" className="font-semibold">
        <Trans>
          <Plural value={cash.late_count} one="# cash entry" other="# cash entries" /> (
          {formatKsh(cash.late_total)}) arrived after the sign-off
        </Trans>
      </h2>
      <p className="mt-1 text-sm">
        <Trans>
          A desk that was offline delivered them later. They are not in the signed figures below, which stay
          as signed. To count them, withdraw the sign-off and sign off again.
        </Trans>
      </p>
    </section>
  );
}

function SignOff({ cash }: { cash: CashReconciliation }) {
  const { t } = useLingui();
  const signOff = useSignOffCash(cash.event.id);
  const [confirming, setConfirming] = useState(false);
  const onSignOff = async () => {
    try {
      await signOff.mutateAsync(undefined);
      setConfirming(false);
      toast({ title: t`Cash count signed off` });
    } catch {
      // Shown below the confirmation.
    }
  };
  if (!confirming) {
    return (
      <button
        type="button"
        className={`${primaryButton} sm:w-auto sm:self-start`}
        onClick={() => setConfirming(true)}
      >
        <Trans>Sign off the count…</Trans>
      </button>
    );
  }
  return (
    <section
      aria-labelledby="sign-off-heading"
      className="rounded-lg border border-brand-200 bg-brand-50 p-4"
    >
      <h2 id="sign-off-heading" className="font-semibold text-slate-900">
        <Trans>Sign off the cash count?</Trans>
      </h2>
      <p className="mt-1 text-slate-800">
        <Trans>
          You sign off {formatKsh(cash.counted_total)} counted against {formatKsh(cash.recorded_total)}{" "}
          recorded at the desk. The counts are then frozen: changing them needs the sign-off withdrawn, with a
          reason, and a new sign-off.
        </Trans>
      </p>
      {signOff.isError && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {errorMessage(signOff.error)}
        </p>
      )}
      <div className="mt-3 flex flex-col gap-3 sm:flex-row">
        <button
          type="button"
          className={`${primaryButton} sm:w-auto`}
          disabled={signOff.isPending}
          onClick={() => void onSignOff()}
        >
          <Trans>Sign off</Trans>
        </button>
        <button type="button" className={outlineButton} onClick={() => setConfirming(false)}>
          <Trans>Not yet</Trans>
        </button>
      </div>
    </section>
  );
}

function Reopen({ eventId }: { eventId: number }) {
  const { t } = useLingui();
  const reopen = useReopenCash(eventId);
  const [reopening, setReopening] = useState(false);
  const [reason, setReason] = useState("");
  const reasonError = reopen.error instanceof ApiRequestError ? reopen.error.fieldErrors.reason : undefined;
  const onReopen = async (submitted: FormEvent) => {
    submitted.preventDefault();
    try {
      await reopen.mutateAsync(reason);
      setReopening(false);
      setReason("");
      toast({ title: t`Sign-off withdrawn: the counts can be corrected` });
    } catch {
      // Shown in the form.
    }
  };
  if (!reopening) {
    return (
      <button type="button" className={`${outlineButton} sm:self-start`} onClick={() => setReopening(true)}>
        <Trans>Withdraw the sign-off…</Trans>
      </button>
    );
  }
  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4"
      noValidate
      onSubmit={(submitted) => void onReopen(submitted)}
    >
      <TextField
        label={t`Why withdraw the sign-off?`}
        hint={t`It goes in the audit log. The count then needs a new sign-off.`}
        maxLength={300}
        required
        value={reason}
        error={reasonError}
        onChange={(changed) => setReason(changed.target.value)}
      />
      {reopen.isError && !reasonError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(reopen.error)}
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row">
        <button type="submit" className={`${dangerButton} sm:w-auto`} disabled={reopen.isPending}>
          <Trans>Withdraw the sign-off</Trans>
        </button>
        <button type="button" className={outlineButton} onClick={() => setReopening(false)}>
          <Trans>Keep it</Trans>
        </button>
      </div>
    </form>
  );
}
