import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import * as v from "valibot";
import { outlineButton } from "@/components/buttonStyles";
import { SelectField, TextAreaField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { ApiRequestError } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { DialogShell } from "./DialogShell";
import { FormButtons, FormFailure } from "./FormParts";
import { formatDay } from "./format";
import {
  type ManagedPledge,
  useCancelPledge,
  useCorrectPledge,
  usePledgeHistory,
  usePledgePayments,
  useRestorePledge,
  useReversePayment,
} from "./managementApi";
import { parseWholeKes, say, wholeKes } from "./rules";

// Corrections of Pledge Management: every one with a reason, audited on the server and shown in the
// pledge's history. Ledger entries are never edited: a mistaken payment gets a reversing entry.

type Props = { pledge: ManagedPledge; onClose(): void };

const reason = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(say(msg`Please give the reason.`)),
  v.maxLength(500, say(msg`Please keep the reason under 500 characters.`)),
);

function Buttons({ busy, label, onClose }: { busy: boolean; label: string; onClose(): void }) {
  return <FormButtons busy={busy} submitLabel={label} closeLabel={<Trans>Close</Trans>} onClose={onClose} />;
}

const correctionSchema = v.object({
  amount: wholeKes(msg`Please enter a whole amount of at least Ksh 1`),
  reason,
});
type CorrectionValues = v.InferInput<typeof correctionSchema>;
const CORRECTION_FIELDS = ["amount", "reason"] as const;

/** 'Correct amount': a mistyped or changed pledge, never below what is paid; the pledger is told. */
export function CorrectPledgeDialog({ pledge, onClose }: Props) {
  const { t } = useLingui();
  const defaults: CorrectionValues = { amount: String(pledge.amount), reason: "" };
  const form = useSchemaForm(correctionSchema, defaults);
  const { errors } = form.formState;
  const correct = useCorrectPledge(pledge);
  const onSubmit = (values: CorrectionValues) =>
    correct.mutate(
      { amount: parseWholeKes(values.amount) ?? 0, reason: values.reason },
      {
        onSuccess: (updated) => {
          toast({
            title: t`Pledge corrected`,
            description: t`${updated.name} now pledges ${formatKsh(updated.amount)}.`,
          });
          onClose();
        },
        onError: (error) => void showFieldErrors(error, form, CORRECTION_FIELDS),
      },
    );
  const paid = formatKsh(pledge.paid_amount ?? 0);
  return (
    <DialogShell
      title={<Trans>Correct the pledge amount</Trans>}
      description={
        <Trans>
          {pledge.name}'s pledge ({pledge.code}): {paid} paid so far. The pledger gets a short message.
        </Trans>
      }
      onClose={onClose}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit(onSubmit)}>
        <TextField
          label={t`New amount (Ksh)`}
          inputMode="numeric"
          autoComplete="off"
          error={errors.amount?.message}
          {...form.register("amount")}
        />
        <TextAreaField
          label={t`Reason`}
          rows={2}
          error={errors.reason?.message}
          {...form.register("reason")}
        />
        <FormFailure error={correct.error} fields={CORRECTION_FIELDS} />
        <Buttons busy={correct.isPending} label={t`Save correction`} onClose={onClose} />
      </form>
    </DialogShell>
  );
}

const cancelSchema = v.object({
  reason,
  payments_to: v.picklist(["", "gift", "pledge"]),
  to_pledge_id: v.string(),
});
type CancelValues = v.InferInput<typeof cancelSchema>;
const CANCEL_FIELDS = ["reason", "payments_to", "to_pledge_id"] as const;

/** 'Cancel pledge': it leaves the totals and the reminders; money paid towards it stays in the books. */
export function CancelPledgeDialog({ pledge, others, onClose }: Props & { others: ManagedPledge[] }) {
  const { t } = useLingui();
  const paid = pledge.paid_amount ?? 0;
  const defaults: CancelValues = { reason: "", payments_to: paid > 0 ? "gift" : "", to_pledge_id: "" };
  const form = useSchemaForm(cancelSchema, defaults);
  const { errors } = form.formState;
  const paymentsTo = form.watch("payments_to");
  const cancel = useCancelPledge(pledge);
  const targets = others.filter((other) => other.id !== pledge.id && !other.cancelled_at);
  const onSubmit = (values: CancelValues) =>
    cancel.mutate(
      {
        reason: values.reason,
        payments_to: values.payments_to,
        to_pledge_id: values.payments_to === "pledge" ? Number(values.to_pledge_id) || null : null,
      },
      {
        onSuccess: () => {
          toast({ title: t`Pledge cancelled` });
          onClose();
        },
        onError: (error) => void showFieldErrors(error, form, CANCEL_FIELDS),
      },
    );
  return (
    <DialogShell
      title={<Trans>Cancel this pledge?</Trans>}
      description={
        <Trans>
          {pledge.name}'s pledge of {formatKsh(pledge.amount)} leaves the totals, the summary and the
          reminders. You can restore it later.
        </Trans>
      }
      onClose={onClose}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit(onSubmit)}>
        <TextAreaField
          label={t`Reason`}
          rows={2}
          error={errors.reason?.message}
          {...form.register("reason")}
        />
        {paid > 0 && (
          <SelectField
            label={t`The ${formatKsh(paid)} already paid`}
            error={errors.payments_to?.message}
            {...form.register("payments_to")}
          >
            <option value="gift">{t`Keep it as a gift (a donation)`}</option>
            <option value="pledge">{t`Count it towards another pledge`}</option>
          </SelectField>
        )}
        {paid > 0 && paymentsTo === "pledge" && (
          <SelectField
            label={t`Other pledge`}
            error={errors.to_pledge_id?.message}
            {...form.register("to_pledge_id")}
          >
            <option value="">{t`Choose a pledge`}</option>
            {targets.map((other) => (
              <option key={other.id} value={other.id}>
                {other.name} ({other.code}, {formatKsh(other.amount)})
              </option>
            ))}
          </SelectField>
        )}
        <FormFailure error={cancel.error} fields={CANCEL_FIELDS} />
        <Buttons busy={cancel.isPending} label={t`Cancel pledge`} onClose={onClose} />
      </form>
    </DialogShell>
  );
}

const restoreSchema = v.object({ reason });
type RestoreValues = v.InferInput<typeof restoreSchema>;

/** 'Restore': a cancelled pledge counts again, as it stands. */
export function RestorePledgeDialog({ pledge, onClose }: Props) {
  const { t } = useLingui();
  const form = useSchemaForm(restoreSchema, { reason: "" });
  const restore = useRestorePledge(pledge);
  const onSubmit = (values: RestoreValues) =>
    restore.mutate(values, {
      onSuccess: () => {
        toast({ title: t`Pledge restored` });
        onClose();
      },
      onError: (error) => void showFieldErrors(error, form, ["reason"]),
    });
  return (
    <DialogShell
      title={<Trans>Restore this pledge?</Trans>}
      description={<Trans>It was cancelled: {pledge.cancel_reason}</Trans>}
      onClose={onClose}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit(onSubmit)}>
        <TextAreaField
          label={t`Reason`}
          rows={2}
          error={form.formState.errors.reason?.message}
          {...form.register("reason")}
        />
        <FormFailure error={restore.error} fields={["reason"]} />
        <Buttons busy={restore.isPending} label={t`Restore pledge`} onClose={onClose} />
      </form>
    </DialogShell>
  );
}

/** 'History': the pledge's payments (reversing one entered by hand, with a reason) and every correction. */
export function PledgeHistoryDialog({ pledge, onClose }: Props) {
  const { t, i18n } = useLingui();
  const payments = usePledgePayments(pledge);
  const history = usePledgeHistory(pledge);
  const reversal = useReversePayment(pledge);
  const [reversing, setReversing] = useState<string | null>(null);
  const [why, setWhy] = useState("");
  const onReverse = (reference: string) =>
    reversal.mutate(
      { reference, reason: why },
      {
        onSuccess: () => {
          toast({ title: t`Payment reversed` });
          setReversing(null);
          setWhy("");
        },
      },
    );
  return (
    <DialogShell title={<Trans>History of {pledge.name}'s pledge</Trans>} onClose={onClose}>
      <h3 className="text-sm font-semibold text-slate-900">
        <Trans>Payments</Trans>
      </h3>
      {payments.data?.length === 0 && (
        <p className="text-sm text-slate-600">
          <Trans>No payments yet.</Trans>
        </p>
      )}
      <ul className="mt-2 space-y-2">
        {payments.data?.map((payment) => (
          <li key={payment.reference} className="rounded-md border border-slate-200 p-3 text-sm">
            <p className={payment.reversed_at ? "text-slate-500 line-through" : "font-medium text-slate-900"}>
              {formatKsh(payment.amount)} ·{" "}
              {payment.mpesa_receipt ?? payment.provider_reference ?? payment.reference}
            </p>
            {payment.reversed_at && (
              <p className="text-slate-700">
                <Trans>Reversed: {payment.reversal_reason}</Trans>
              </p>
            )}
            {payment.reversible && reversing !== payment.reference && (
              <button
                type="button"
                onClick={() => setReversing(payment.reference)}
                className="mt-1 text-sm font-medium text-red-700 hover:underline"
              >
                <Trans>Reverse</Trans>
                <span className="sr-only">: {formatKsh(payment.amount)}</span>
              </button>
            )}
            {reversing === payment.reference && (
              <form
                noValidate
                className="mt-2 space-y-2"
                onSubmit={(event) => {
                  event.preventDefault();
                  onReverse(payment.reference);
                }}
              >
                <TextField
                  label={t`Reason for the reversal`}
                  value={why}
                  onChange={(event) => setWhy(event.target.value)}
                  error={
                    reversal.error instanceof ApiRequestError
                      ? (reversal.error.fieldErrors.reason ?? reversal.error.message)
                      : undefined
                  }
                />
                <button type="submit" disabled={reversal.isPending} className={outlineButton}>
                  <Trans>Reverse payment</Trans>
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      <h3 className="mt-4 text-sm font-semibold text-slate-900">
        <Trans>Changes</Trans>
      </h3>
      <ol className="mt-2 space-y-2 text-sm">
        {history.data?.map((entry) => (
          <li key={`${entry.action}-${entry.at}-${entry.object_repr}`}>
            <span className="font-medium text-slate-900">{entry.action_label}</span>{" "}
            <span className="text-slate-600">
              · <time dateTime={entry.at}>{formatDay(entry.at, i18n.locale)}</time>
              {entry.actor && <> · {entry.actor}</>}
            </span>
            {entry.reason && <p className="text-slate-700">{entry.reason}</p>}
          </li>
        ))}
      </ol>
    </DialogShell>
  );
}
