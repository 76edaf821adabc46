import { Plural, Trans, useLingui } from "@lingui/react/macro";
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
import { CardReturnForm } from "@/features/champions/CardReturnForm";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKenyaTime } from "@/lib/kenyaTime";
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
import { deskQueue, flushQueue, type QueuedEntry, queueSplit, type Usher } from "./queue";

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
    return <PasscodeSignIn campaignId={id} />;
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

/**
 * Sends what waits under the usher signed in now: at once, whenever the network comes back, and
 * every few seconds while any waits.
 */
function useQueueSender(campaignId: number, usherKey: string, waiting: number) {
  const queryClient = useQueryClient();
  const send = useCallback(async () => {
    const delivered = await flushQueue(deliverEntry, usherKey);
    if (delivered > 0) await queryClient.invalidateQueries({ queryKey: deskKeys.desk(campaignId) });
  }, [campaignId, usherKey, queryClient]);
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
  const { waiting, refused, heldAside } = queueSplit(useQueue(desk.campaign_id), desk.usher_key);
  const send = useQueueSender(desk.campaign_id, desk.usher_key, waiting.length);
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
        <EntryForm
          campaignId={desk.campaign_id}
          eventId={event.id}
          typist={{ key: desk.usher_key, name: desk.usher_name }}
          onKept={() => void send()}
        />
      ) : null}
      {refused.length > 0 && <RefusedEntries entries={refused} />}
      {heldAside.length > 0 && <HeldAsideEntries entries={heldAside} />}
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
      {/* A champion's harambee card brought back: online only, and not with a volunteer's passcode (the
          card's gifts are recorded at once, as the team's). */}
      {!desk.by_passcode && <HarambeeCards campaignId={desk.campaign_id} />}
      {!desk.by_passcode && (
        <Link href={`/campaign/${desk.campaign_id}/events`} className="text-sm text-brand-700 underline">
          <Trans>Events of this campaign</Trans>
        </Link>
      )}
    </>
  );
}

/** The card form is drawn only once its section is opened: until then the usher's page has one amount
 * field, the entry's, which the keyboard goes back to after every entry. */
function HarambeeCards({ campaignId }: { campaignId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="rounded-lg border border-slate-200 p-4"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="cursor-pointer font-medium text-slate-900">
        <Trans>Harambee cards</Trans>
      </summary>
      {open && (
        <div className="mt-3">
          <CardReturnForm campaignId={campaignId} />
        </div>
      )}
    </details>
  );
}

function useKindLabels(): Record<Kind, string> {
  const { t } = useLingui();
  return { pledge: t`Pledge card`, cash: t`Cash`, mpesa: t`M-Pesa` };
}

function EntryForm({
  campaignId,
  eventId,
  typist,
  onKept,
}: {
  campaignId: number;
  eventId: number;
  typist: Usher;
  onKept(): void;
}) {
  const { t } = useLingui();
  const kindLabels = useKindLabels();
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

  const kinds = (["pledge", "cash", "mpesa"] as const).map((value) => ({ value, label: kindLabels[value] }));

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
      typedBy: typist,
      typedAt: new Date().toISOString(),
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

/**
 * Entries typed here by ushers who are no longer signed in (a passcode revoked, someone signed
 * out): never sent under the one signed in now, shown in full for a treasurer to read and count, and
 * discarded only on purpose.
 */
function HeldAsideEntries({ entries }: { entries: QueuedEntry[] }) {
  const typists = new Map<string, QueuedEntry[]>();
  for (const entry of entries)
    typists.set(entry.typedBy.key, [...(typists.get(entry.typedBy.key) ?? []), entry]);
  return (
    <>
      {[...typists.values()].map((theirs) => (
        <HeldAsideOfOne key={theirs[0]?.typedBy.key} entries={theirs} />
      ))}
    </>
  );
}

function HeldAsideOfOne({ entries }: { entries: QueuedEntry[] }) {
  const { i18n } = useLingui();
  const kindLabels = useKindLabels();
  const [confirming, setConfirming] = useState(false);
  const name = entries[0]?.typedBy.name ?? "";
  const total = entries.reduce((sum, entry) => sum + entry.body.amount, 0);
  const headingId = `held-${entries[0]?.typedBy.key}`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-amber-300 bg-amber-50 p-4"
      data-testid="desk-held-aside"
    >
      <h2 id={headingId} className="font-semibold text-amber-900">
        <Trans>Typed by {name}, who is no longer signed in here: show them to a treasurer</Trans>
      </h2>
      <p className="mt-1 text-sm text-amber-900">
        <Trans>
          Not sent: they are sent only when {name} signs in on this phone again.{" "}
          <Plural value={entries.length} one="# entry" other="# entries" />, {formatKsh(total)}.
        </Trans>
      </p>
      <ul className="mt-2 flex flex-col gap-1 text-sm text-slate-900">
        {entries.map((entry) => (
          <li key={entry.body.idempotency_key}>
            {formatKenyaTime(entry.typedAt, i18n.locale)} · {kindLabels[entry.body.kind]} ·{" "}
            {formatKsh(entry.body.amount)}
            {entry.body.name && ` · ${entry.body.name}`}
            {entry.body.phone && ` · ${entry.body.phone}`}
            {entry.body.mpesa_receipt && ` · ${entry.body.mpesa_receipt}`}
          </li>
        ))}
      </ul>
      {confirming ? (
        <fieldset className="mt-3 flex flex-wrap items-center gap-2">
          <legend className="mb-2 text-sm text-red-900">
            <Trans>Discard the entries of {name} for good? The server never received them.</Trans>
          </legend>
          <button
            type="button"
            className={outlineButton}
            onClick={() => {
              for (const entry of entries) deskQueue.remove(entry.body.idempotency_key);
            }}
          >
            <Trans>Yes, discard them</Trans>
          </button>
          <button type="button" className={outlineButton} onClick={() => setConfirming(false)}>
            <Trans>Keep them</Trans>
          </button>
        </fieldset>
      ) : (
        <button type="button" className={`${outlineButton} mt-3`} onClick={() => setConfirming(true)}>
          <Trans>Discard the entries of {name}</Trans>
        </button>
      )}
    </section>
  );
}

function PasscodeSignIn({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  // Who was signed in here last (their passcode revoked, their event closed, or signed out).
  const earlier = rememberedDesk(campaignId);
  const kept = useQueue(campaignId).length;
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
      {earlier && (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" role="alert">
          <Trans>
            {earlier.usher_name} is no longer signed in at this desk: the passcode was revoked, its event
            closed, or the session ended. Ask the event's owner.
          </Trans>{" "}
          {kept > 0 && (
            <Plural
              value={kept}
              one="# entry typed here is kept on this phone: it is sent only under the usher who typed it."
              other="# entries typed here are kept on this phone: each is sent only under the usher who typed it."
            />
          )}
        </p>
      )}
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
