import { Trans, useLingui } from "@lingui/react/macro";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { SelectField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { DialogShell } from "./DialogShell";
import { FormButtons, FormFailure } from "./FormParts";
import { type ManagedPledge, useSetPlan } from "./managementApi";
import {
  type Plan,
  type PlanValues,
  planBody,
  planCadence,
  planDefaults,
  planSchema,
  planStandingLabel,
} from "./plans";

export const PLAN_FIELDS = ["instalment", "frequency", "firstDueOn"] as const;

/** The instalment, how often, and the first due date: the same three fields wherever a plan is chosen. */
export function PlanFields({
  register,
  errors,
  defaults,
  minFirstDueOn,
  maxFirstDueOn,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: each form holds these three fields among its own.
  register: UseFormRegister<any>;
  errors: FieldErrors<PlanValues>;
  /** In the server's HTML (a form sent without JavaScript): what was typed. */
  defaults?: PlanValues;
  minFirstDueOn?: string;
  maxFirstDueOn?: string;
}) {
  const { t } = useLingui();
  return (
    <>
      <TextField
        label={t`Instalment (Ksh)`}
        inputMode="numeric"
        autoComplete="off"
        hint={<Trans>The last instalment takes whatever is left of the pledge.</Trans>}
        defaultValue={defaults?.instalment}
        error={errors.instalment?.message}
        {...register("instalment")}
      />
      <SelectField
        label={t`How often`}
        defaultValue={defaults?.frequency}
        error={errors.frequency?.message}
        {...register("frequency")}
      >
        <option value="monthly">{t`Every month`}</option>
        <option value="weekly">{t`Every week`}</option>
      </SelectField>
      <TextField
        label={t`First instalment due on`}
        type="date"
        min={minFirstDueOn}
        max={maxFirstDueOn}
        defaultValue={defaults?.firstDueOn}
        hint={<Trans>Monthly on the 29th to 31st falls on the last day of shorter months.</Trans>}
        error={errors.firstDueOn?.message}
        {...register("firstDueOn")}
      />
    </>
  );
}

const TONES: Record<Plan["standing"], string> = {
  on_track: "bg-green-100 text-green-800",
  ahead: "bg-sky-100 text-sky-900",
  behind: "bg-red-100 text-red-800",
};

/** Where a pledger stands on their plan, with the plan under it ('Ksh 5,000 a month'). */
export function PlanStanding({ plan }: { plan: Plan }) {
  return (
    <span className="mt-1 block">
      <span
        className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[plan.standing]}`}
      >
        {planStandingLabel(plan)}
      </span>
      <span className="block text-xs text-slate-600">
        {planCadence(plan)}
        {plan.standing_order?.status === "active" && (
          <>
            {" · "}
            <Trans>paid automatically (M-Pesa Ratiba)</Trans>
          </>
        )}
      </span>
    </span>
  );
}

/** A treasurer's plan for a pledge, agreed with its pledger; its first instalment may lie in the past. */
export function PlanDialog({ pledge, onClose }: { pledge: ManagedPledge; onClose(): void }) {
  const { t } = useLingui();
  const current = pledge.plan;
  const form = useSchemaForm(
    planSchema,
    current
      ? {
          instalment: String(current.instalment),
          frequency: current.frequency,
          firstDueOn: current.first_due_on,
        }
      : planDefaults(),
  );
  const setPlan = useSetPlan(pledge);
  const onSave = (values: PlanValues) =>
    setPlan.mutate(planBody(values), {
      onSuccess: (updated) => {
        toast({
          title: t`Instalment plan saved`,
          description: updated.plan ? planStandingLabel(updated.plan) : undefined,
        });
        onClose();
      },
      onError: (error) => void showFieldErrors(error, form, PLAN_FIELDS),
    });
  const amount = formatKsh(pledge.amount);
  return (
    <DialogShell
      title={<Trans>Instalment plan</Trans>}
      description={
        <Trans>
          {pledge.name} pledged {amount}. Agree a plan with them: payments of any kind count against it in
          order, and reminders follow it instead of the campaign's.
        </Trans>
      }
      onClose={onClose}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit(onSave)}>
        <PlanFields register={form.register} errors={form.formState.errors} />
        <FormFailure error={setPlan.error} fields={PLAN_FIELDS} />
        <FormButtons
          busy={setPlan.isPending}
          submitLabel={setPlan.isPending ? <Trans>Saving...</Trans> : <Trans>Save plan</Trans>}
          closeLabel={<Trans>Cancel</Trans>}
          onClose={onClose}
        />
      </form>
    </DialogShell>
  );
}
