import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import * as v from "valibot";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { SelectField, TextAreaField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { DialogShell } from "./DialogShell";
import { confirmFailed, type ManagedPledge, useConfirmPayment, useRecordPayment } from "./managementApi";
import { parseWholeKes, say, wholeKes } from "./rules";

type Props = { pledge: ManagedPledge; onClose(): void };

/** 'Confirm payment' of a pledge paid by bank or cash: one way, so it asks first. */
export function ConfirmPaymentDialog({ pledge, onClose }: Props) {
  const { t } = useLingui();
  const confirm = useConfirmPayment(pledge);
  const onConfirm = () =>
    confirm.mutate(undefined, {
      onSuccess: () => {
        toast({ title: t`Payment confirmed successfully!` });
        onClose();
      },
      onError: (error) =>
        toast({
          title: t`Failed to confirm payment`,
          description: errorMessage(error, confirmFailed()),
          variant: "destructive",
        }),
    });
  const amount = formatKsh(pledge.amount);
  const paid = formatKsh(pledge.paid_amount ?? 0);
  return (
    <DialogShell
      role="alertdialog"
      title={<Trans>Confirm payment?</Trans>}
      description={
        <Trans>
          {pledge.name} pledged {amount} and has paid {paid} through the platform. Confirm that the rest was
          paid by bank transfer or cash. This action cannot be undone.
        </Trans>
      }
      onClose={onClose}
    >
      {confirm.error && (
        <p role="alert" className="mb-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {errorMessage(confirm.error, confirmFailed())}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" onClick={onClose} className={outlineButton}>
          <Trans>Cancel</Trans>
        </button>
        <button
          type="button"
          disabled={confirm.isPending}
          onClick={onConfirm}
          className={`${primaryButton} sm:w-auto`}
        >
          {confirm.isPending ? <Trans>Confirming...</Trans> : <Trans>Confirm payment</Trans>}
        </button>
      </div>
    </DialogShell>
  );
}

const manualPaymentSchema = v.object({
  amount: wholeKes(msg`Please enter a whole amount of at least Ksh 1`),
  method: v.picklist(["cash", "bank"]),
  reference: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(100, say(msg`Please keep the reference under 100 characters.`)),
  ),
  note: v.pipe(v.string(), v.trim(), v.maxLength(500, say(msg`Please keep the note under 500 characters.`))),
});

type ManualPaymentValues = v.InferInput<typeof manualPaymentSchema>;
const FIELDS = ["amount", "method", "reference", "note"] as const;

/** 'Record cash or bank payment': counted towards the pledge and entered in the ledger with who recorded it. */
export function RecordPaymentDialog({ pledge, onClose }: Props) {
  const { t } = useLingui();
  const defaults: ManualPaymentValues = {
    amount: String(pledge.remaining_amount || ""),
    method: "cash",
    reference: "",
    note: "",
  };
  const form = useSchemaForm(manualPaymentSchema, defaults);
  const { errors } = form.formState;
  const record = useRecordPayment(pledge);
  const onRecord = (values: ManualPaymentValues) =>
    record.mutate(
      { ...values, amount: parseWholeKes(values.amount) ?? 0 },
      {
        onSuccess: (updated) => {
          toast({
            title: t`Payment recorded`,
            description: t`${updated.name} has now paid ${formatKsh(updated.paid_amount ?? 0)} of ${formatKsh(updated.amount)}.`,
          });
          onClose();
        },
        onError: (error) => void showFieldErrors(error, form, FIELDS),
      },
    );
  const failure =
    record.error &&
    !FIELDS.some((field) => record.error instanceof ApiRequestError && record.error.fieldErrors[field])
      ? errorMessage(record.error)
      : null;
  const remaining = formatKsh(pledge.remaining_amount ?? 0);

  return (
    <DialogShell
      title={<Trans>Record cash or bank payment</Trans>}
      description={
        <Trans>
          For {pledge.name}'s pledge ({pledge.code}): {remaining} still to pay.
        </Trans>
      }
      onClose={onClose}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit(onRecord)}>
        <TextField
          label={t`Amount (Ksh)`}
          inputMode="numeric"
          autoComplete="off"
          error={errors.amount?.message}
          {...form.register("amount")}
        />
        <SelectField label={t`Paid by`} error={errors.method?.message} {...form.register("method")}>
          <option value="cash">{t`Cash`}</option>
          <option value="bank">{t`Bank transfer`}</option>
        </SelectField>
        <TextField
          label={t`Bank reference (optional)`}
          autoComplete="off"
          hint={<Trans>Each bank reference is recorded once, so a transfer is never counted twice.</Trans>}
          error={errors.reference?.message}
          {...form.register("reference")}
        />
        <TextAreaField
          label={t`Note (optional)`}
          rows={2}
          error={errors.note?.message}
          {...form.register("note")}
        />
        {failure && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {failure}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} className={outlineButton}>
            <Trans>Cancel</Trans>
          </button>
          <button type="submit" disabled={record.isPending} className={`${primaryButton} sm:w-auto`}>
            {record.isPending ? <Trans>Recording...</Trans> : <Trans>Record payment</Trans>}
          </button>
        </div>
      </form>
    </DialogShell>
  );
}
