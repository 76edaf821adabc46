import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId } from "@/features/campaigns/links";
import { todayIso } from "@/features/campaigns/rules";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import {
  type Desk,
  type DeskEntryIn,
  deliverEntry,
  deskKeys,
  rememberedDesk,
  useDesk,
  usePasscodeSignIn,
} from "./api";
import { IssuePasscode } from "./DeskPasscodes";
import { keepDeskOffline, linkDeskManifest } from "./offline";
import { deskQueue, flushQueue, type QueuedEntry } from "./queue";

// How often a desk with entries waiting tries the network again.
const RETRY_MS = 3000;
const MPESA_RECEIPT = /^[A-Za-z0-9]{10}$/;

type Kind = DeskEntryIn["kind"];
type Frequency = NonNullable<DeskEntryIn["plan"]>["frequency"];

/** The same day next month (the month's last day when it is shorter): the first instalment's
 * default, late enough that an entry kept offline past midnight is not refused as due in the past. */
function nextMonthIso(now = new Date()): string {
  const lastDay = new Date(now.getFullYear(), now.getMonth() + 2, 0).getDate();
  return todayIso(new Date(now.getFullYear(), now.getMonth() + 1, Math.min(now.getDate(), lastDay)));
}

/**
 * /campaign/:id/desk: an usher's phone at a harambee. Pledge cards and gifts in a few keystrokes,
 * kept on the phone until the server has them (queue.ts), so a hall whose Wi-Fi drops loses nothing
 * and counts nothing twice. Owners, treasurers and ushers signed in, or a volunteer with a passcode.
 */
export default function DeskPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  // The layout's footer has the language switch.
  return (
    <AppLayout>
      <div className="mx-auto flex max-w-md flex-col gap-5 px-4 py-5">
        {id === null ? <CampaignNotFound /> : <DeskLoader id={id} />}
      </div>
    </AppLayout>
  );
}

function DeskLoader({ id }: { id: number }) {
  const desk = useDesk(id);
  useEffect(() => linkDeskManifest(id), [id]);
  useEffect(() => {
    void keepDeskOffline(id);
  }, [id]);
  if (desk.isError && desk.error instanceof ApiRequestError && desk.error.status === 401) {
    return <PasscodeSignIn />;
  }
  // No answer at all (no network): the desk keeps working from what it last heard.
  const unreachable = desk.isError && !(desk.error instanceof ApiRequestError);
  const shown = desk.data ?? (unreachable ? rememberedDesk(id) : undefined);
  if (shown) return <DeskView desk={shown} offline={unreachable} />;
  if (desk.isError) {
    return <PageLoadError message={errorMessage(desk.error)} retry={() => void desk.refetch()} />;
  }
  return <PageSkeleton />;
}

function useQueue(campaignId: number): QueuedEntry[] {
  const entries = useSyncExternalStore(deskQueue.subscribe, deskQueue.entries);
  return entries.filter((entry) => entry.campaignId === campaignId);
}

/** Sends what waits: now, whenever the network comes back, and every few seconds while any waits. */
function useQueueSender(campaignId: number, waiting: number) {
  const queryClient = useQueryClient();
  const send = useCallback(async () => {
    const delivered = await flushQueue(deliverEntry);
    if (delivered > 0) await queryClient.invalidateQueries({ queryKey: deskKeys.desk(campaignId) });
  }, [campaignId, queryClient]);
  useEffect(() => {
    const online = () => void send();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [send]);
  useEffect(() => {
    if (waiting === 0) return;
    void send();
    const timer = window.setInterval(() => void send(), RETRY_MS);
    return () => window.clearInterval(timer);
  }, [send, waiting]);
  return send;
}

function DeskView({ desk, offline }: { desk: Desk; offline: boolean }) {
  const { t } = useLingui();
  const queue = useQueue(desk.campaign_id);
  const waiting = queue.filter((entry) => !entry.refusal);
  const refused = queue.filter((entry) => entry.refusal);
  const send = useQueueSender(desk.campaign_id, waiting.length);
  const event = desk.event;
  const canAdd =
    event !== null && event.state !== "scheduled" && !(desk.by_passcode && event.state === "closed");
  return (
    <>
      <header className="flex flex-col gap-1">
        <h1 className="text-xl font-semibold text-slate-900">
          <Trans>Desk: {desk.campaign_title}</Trans>
        </h1>
        <p className="text-sm text-slate-700">
          {event ? (
            <Trans>
              {event.title} · {desk.usher_name}
            </Trans>
          ) : (
            <Trans>No event is open: entries can be added once the owner opens one.</Trans>
          )}
        </p>
      </header>
      <section aria-label={t`Your entries`} className="grid grid-cols-2 gap-3 text-center">
        <p className="rounded-lg bg-amber-50 p-3 text-amber-900" role="status" data-testid="desk-waiting">
          <span className="block text-2xl font-bold">{waiting.length}</span>
          <Trans>waiting to send</Trans>
        </p>
        <p className="rounded-lg bg-brand-50 p-3 text-brand-900" data-testid="desk-sent">
          <span className="block text-2xl font-bold">{desk.entries_count}</span>
          <Trans>sent by you · {formatKsh(desk.entries_total)}</Trans>
        </p>
      </section>
      {offline && (
        <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-700" role="status">
          <Trans>No connection: entries are kept on this phone and sent when it is back.</Trans>
        </p>
      )}
      {canAdd && event ? (
        <EntryForm campaignId={desk.campaign_id} eventId={event.id} onKept={() => void send()} />
      ) : null}
      {refused.length > 0 && <RefusedEntries entries={refused} />}
      {desk.can_issue_passcodes && event && event.state !== "closed" && (
        <details className="rounded-lg border border-slate-200 p-4">
          <summary className="cursor-pointer font-medium text-slate-900">
            <Trans>A passcode for a volunteer without an account</Trans>
          </summary>
          <div className="mt-3">
            <IssuePasscode eventId={event.id} />
          </div>
        </details>
      )}
      {!desk.by_passcode && (
        <Link href={`/campaign/${desk.campaign_id}/events`} className="text-sm text-brand-700 underline">
          <Trans>Events of this campaign</Trans>
        </Link>
      )}
    </>
  );
}

function EntryForm({ campaignId, eventId, onKept }: { campaignId: number; eventId: number; onKept(): void }) {
  const { t } = useLingui();
  const [kind, setKind] = useState<Kind>("pledge");
  const [amount, setAmount] = useState("");
  const [phone, setPhone] = useState("");
  const [name, setName] = useState("");
  const [receipt, setReceipt] = useState("");
  const [anonymous, setAnonymous] = useState(false);
  const [inInstalments, setInInstalments] = useState(false);
  const [instalment, setInstalment] = useState("");
  const [frequency, setFrequency] = useState<Frequency>("monthly");
  const [firstDueOn, setFirstDueOn] = useState(nextMonthIso);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [kept, setKept] = useState("");
  const amountInput = useRef<HTMLInputElement>(null);

  const kinds: { value: Kind; label: string }[] = [
    { value: "pledge", label: t`Pledge card` },
    { value: "cash", label: t`Cash` },
    { value: "mpesa", label: t`M-Pesa` },
  ];

  const onSubmit = (submitted: FormEvent) => {
    submitted.preventDefault();
    const whole = Number(amount);
    const found: Record<string, string> = {};
    if (!Number.isInteger(whole) || whole < 1) found.amount = t`Enter the amount in whole shillings.`;
    if (kind === "pledge" && !phone.trim())
      found.phone = t`A pledge needs the pledger's phone: the code goes there.`;
    if (kind === "mpesa" && !MPESA_RECEIPT.test(receipt.trim())) {
      found.mpesa_receipt = t`Enter the M-Pesa receipt code: 10 letters and digits.`;
    }
    const withPlan = kind === "pledge" && inInstalments;
    const perInstalment = Number(instalment);
    if (withPlan && (!Number.isInteger(perInstalment) || perInstalment < 1)) {
      found.instalment = t`Please enter a whole instalment of at least Ksh 1`;
    }
    if (withPlan && !firstDueOn) found.first_due_on = t`Please choose when the first instalment falls due.`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    deskQueue.add({
      campaignId,
      eventId,
      body: {
        idempotency_key: crypto.randomUUID(),
        kind,
        amount: whole,
        name: name.trim(),
        phone: phone.trim(),
        is_anonymous: anonymous,
        mpesa_receipt: kind === "mpesa" ? receipt.trim() : "",
        plan: withPlan ? { instalment: perInstalment, frequency, first_due_on: firstDueOn } : null,
      },
    });
    setKept(t`Kept: ${formatKsh(whole)}`);
    setAmount("");
    setPhone("");
    setName("");
    setReceipt("");
    setAnonymous(false);
    setInInstalments(false);
    setInstalment("");
    amountInput.current?.focus();
    onKept();
  };

  return (
    <form className="flex flex-col gap-4" noValidate onSubmit={onSubmit} aria-label={t`New entry`}>
      <fieldset className="grid grid-cols-3 gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">
          <Trans>What is it?</Trans>
        </legend>
        {kinds.map((option) => (
          <label
            key={option.value}
            className={`flex cursor-pointer items-center justify-center gap-1 rounded-md border px-2 py-2 text-sm font-medium ${
              kind === option.value
                ? "border-brand-700 bg-brand-50 text-brand-900"
                : "border-slate-300 text-slate-700"
            }`}
          >
            <input
              type="radio"
              name="kind"
              className="sr-only"
              value={option.value}
              checked={kind === option.value}
              onChange={() => setKind(option.value)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <TextField
        ref={amountInput}
        label={t`Amount (Ksh)`}
        inputMode="numeric"
        autoComplete="off"
        autoFocus
        value={amount}
        error={errors.amount}
        onChange={(changed) => setAmount(changed.target.value.replace(/[^\d]/g, ""))}
      />
      {kind === "mpesa" && (
        <TextField
          label={t`M-Pesa receipt code`}
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={10}
          value={receipt}
          error={errors.mpesa_receipt}
          onChange={(changed) => setReceipt(changed.target.value.toUpperCase())}
        />
      )}
      <TextField
        label={kind === "pledge" ? t`Phone` : t`Phone (optional)`}
        type="tel"
        inputMode="tel"
        autoComplete="off"
        value={phone}
        error={errors.phone}
        onChange={(changed) => setPhone(changed.target.value)}
      />
      <TextField
        label={t`Name (optional)`}
        autoComplete="off"
        maxLength={150}
        value={name}
        onChange={(changed) => setName(changed.target.value)}
      />
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={anonymous}
          onChange={(changed) => setAnonymous(changed.target.checked)}
        />
        <Trans>Anonymous on the big screen</Trans>
      </label>
      {kind === "pledge" && (
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={inInstalments}
            onChange={(changed) => setInInstalments(changed.target.checked)}
          />
          <Trans>Pays in instalments</Trans>
        </label>
      )}
      {kind === "pledge" && inInstalments && (
        <fieldset className="grid grid-cols-2 gap-3">
          <legend className="sr-only">
            <Trans>Instalment plan</Trans>
          </legend>
          <TextField
            label={t`Instalment (Ksh)`}
            inputMode="numeric"
            autoComplete="off"
            value={instalment}
            error={errors.instalment}
            onChange={(changed) => setInstalment(changed.target.value.replace(/[^\d]/g, ""))}
          />
          <SelectField
            label={t`How often`}
            value={frequency}
            onChange={(changed) => setFrequency(changed.target.value as Frequency)}
          >
            <option value="monthly">{t`Every month`}</option>
            <option value="weekly">{t`Every week`}</option>
          </SelectField>
          <TextField
            label={t`First instalment due on`}
            type="date"
            className="col-span-2"
            min={todayIso()}
            value={firstDueOn}
            error={errors.first_due_on}
            onChange={(changed) => setFirstDueOn(changed.target.value)}
          />
        </fieldset>
      )}
      <button type="submit" className={primaryButton}>
        <Trans>Add entry</Trans>
      </button>
      <p className="text-sm text-slate-700" aria-live="polite">
        {kept}
      </p>
    </form>
  );
}

function RefusedEntries({ entries }: { entries: QueuedEntry[] }) {
  const { t } = useLingui();
  return (
    <section aria-labelledby="refused-heading" className="rounded-lg border border-red-200 bg-red-50 p-4">
      <h2 id="refused-heading" className="font-semibold text-red-900">
        <Trans>Not accepted: check these with a treasurer</Trans>
      </h2>
      <ul className="mt-2 flex flex-col gap-2">
        {entries.map((entry) => (
          <li key={entry.body.idempotency_key} className="flex items-start justify-between gap-2 text-sm">
            <span>
              {formatKsh(entry.body.amount)} {entry.body.name} — {entry.refusal}
            </span>
            <button
              type="button"
              className={outlineButton}
              aria-label={t`Remove the entry of ${formatKsh(entry.body.amount)}`}
              onClick={() => deskQueue.remove(entry.body.idempotency_key)}
            >
              <Trans>Remove</Trans>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PasscodeSignIn() {
  const { t } = useLingui();
  const signIn = usePasscodeSignIn();
  const [passcode, setPasscode] = useState("");
  const [error, setError] = useState("");
  const onSubmit = async (submitted: FormEvent) => {
    submitted.preventDefault();
    try {
      await signIn.mutateAsync(passcode);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <>
      <h1 className="text-xl font-semibold text-slate-900">
        <Trans>Ushers' desk</Trans>
      </h1>
      <form className="flex flex-col gap-4" noValidate onSubmit={(submitted) => void onSubmit(submitted)}>
        <TextField
          label={t`Desk passcode`}
          autoCapitalize="characters"
          autoComplete="off"
          value={passcode}
          error={error}
          hint={t`The event's owner gives each volunteer one.`}
          onChange={(changed) => setPasscode(changed.target.value)}
        />
        <button type="submit" className={primaryButton} disabled={signIn.isPending}>
          <Trans>Open the desk</Trans>
        </button>
      </form>
      <p className="text-sm text-slate-700">
        <Trans>
          Have an account on the team?{" "}
          <Link
            href={`/signin?next=${encodeURIComponent(location.pathname)}`}
            className="text-brand-700 underline"
          >
            Sign in
          </Link>
        </Trans>
      </p>
    </>
  );
}
