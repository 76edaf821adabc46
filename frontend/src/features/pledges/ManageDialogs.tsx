import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import * as v from "valibot";
import { SelectField, TextAreaField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { todayIso } from "@/features/campaigns/rules";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { DialogShell } from "./DialogShell";
import { FormButtons, FormFailure } from "./FormParts";
import { confirmFailed, type ManagedPledge, useConfirmPayment, useRecordPayment } from "./managementApi";
import { parseWholeKes, say, wholeKes } from "./rules";

type Props = { pledge: ManagedPledge; onClose(): void };

const METHODS = ["bank", "cash", "mpesa_manual"] as const;
type Method = (typeof METHODS)[number];

const receivedEntries = {
  method: v.picklist(METHODS),
  received_on: v.pipe(v.string(), v.nonEmpty(say(msg`Please enter the date the money was received.`))),
  reference: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(100, say(msg`Please keep the reference under 100 characters.`)),
  ),
};

/** How, when and with which reference money reached the organization: shared by 'Confirm payment' and
 * 'Record payment'. An M-Pesa receipt code is required (one receipt, one credit). */
function ReceivedFields({
  form,
  method,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: both dialogs' forms share these three fields.
  form: ReturnType<typeof useSchemaForm<any>>;
  method: Method;
}) {
  const { t } = useLingui();
  const { errors } = form.formState;
  const referenceLabel = {
    mpesa_manual: t`M-Pesa receipt code`,
    bank: t`Bank reference (optional)`,
    cash: t`Receipt book number (optional)`,
  }[method];
  return (
    <>
      <SelectField label={t`Paid by`} error={errors.method?.message as string} {...form.register("method")}>
        <option value="bank">{t`Bank transfer`}</option>
        <option value="cash">{t`Cash`}</option>
        <option value="mpesa_manual">{t`M-Pesa to the organization's number`}</option>
      </SelectField>
      <TextField
        label={t`Date received`}
        type="date"
        max={todayIso()}
        error={errors.received_on?.message as string}
        {...form.register("received_on")}
      />
      <TextField
        label={referenceLabel}
        autoComplete="off"
        hint={<Trans>Each reference is recorded once, so a payment is never counted twice.</Trans>}
        error={errors.reference?.message as string}
        {...form.register("reference")}
      />
    </>
  );
}

const confirmSchema = v.object(receivedEntries);
type ConfirmValues = v.InferInput<typeof confirmSchema>;
const CONFIRM_FIELDS = ["method", "received_on", "reference"] as const;

/** 'Confirm payment': the rest of the pledge was paid outside the paybill; asks how, when and the reference. */
export function ConfirmPaymentDialog({ pledge, onClose }: Props) {
  const { t } = useLingui();
  const defaults: ConfirmValues = { method: "bank", received_on: todayIso(), reference: "" };
  const form = useSchemaForm(confirmSchema, defaults);
  const method = form.watch("method");
  const confirm = useConfirmPayment(pledge);
  const onConfirm = (values: ConfirmValues) =>
    confirm.mutate(values, {
      onSuccess: () => {
        toast({ title: t`Payment confirmed successfully!` });
        onClose();
      },
      onError: (error) => void showFieldErrors(error, form, CONFIRM_FIELDS),
    });
  const amount = formatKsh(pledge.amount);
  const paid = formatKsh(pledge.paid_amount ?? 0);
  const remaining = formatKsh(pledge.remaining_amount ?? 0);
  return (
    <DialogShell
      role="alertdialog"
      title={<Trans>Confirm payment?</Trans>}
      description={
        <Trans>
          {pledge.name} pledged {amount} and has paid {paid}. Confirm that the remaining {remaining} was
          received. Recorded payments can only be corrected by a reversing entry, with a reason.
        </Trans>
      }
      onClose={onClose}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit(onConfirm)}>
        <ReceivedFields form={form} method={method} />
        <FormFailure error={confirm.error} fields={CONFIRM_FIELDS} fallback={confirmFailed()} />
        <FormButtons
          busy={confirm.isPending}
          submitLabel={confirm.isPending ? <Trans>Confirming...</Trans> : <Trans>Confirm payment</Trans>}
          closeLabel={<Trans>Cancel</Trans>}
          onClose={onClose}
        />
      </form>
    </DialogShell>
  );
}

const manualPaymentSchema = v.object({
  amount: wholeKes(msg`Please enter a whole amount of at least Ksh 1`),
  ...receivedEntries,
  note: v.pipe(v.string(), v.trim(), v.maxLength(500, say(msg`Please keep the note under 500 characters.`))),
});

type ManualPaymentValues = v.InferInput<typeof manualPaymentSchema>;
const FIELDS = ["amount", "method", "received_on", "reference", "note"] as const;

/** 'Record cash or bank payment' (or M-Pesa to the organization's number): counted towards the pledge and
 * entered in the ledger with who recorded it and the day received; partial amounts go through here. */
export function RecordPaymentDialog({ pledge, onClose }: Props) {
  const { t } = useLingui();
  const defaults: ManualPaymentValues = {
    amount: String(pledge.remaining_amount || ""),
    method: "cash",
    received_on: todayIso(),
    reference: "",
    note: "",
  };
  const form = useSchemaForm(manualPaymentSchema, defaults);
  const { errors } = form.formState;
  const method = form.watch("method");
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
        <ReceivedFields form={form} method={method} />
        <TextAreaField
          label={t`Note (optional)`}
          rows={2}
          error={errors.note?.message}
          {...form.register("note")}
        />
        <FormFailure error={record.error} fields={FIELDS} />
        <FormButtons
          busy={record.isPending}
          submitLabel={record.isPending ? <Trans>Recording...</Trans> : <Trans>Record payment</Trans>}
          closeLabel={<Trans>Cancel</Trans>}
          onClose={onClose}
        />
      </form>
    </DialogShell>
  );
}
