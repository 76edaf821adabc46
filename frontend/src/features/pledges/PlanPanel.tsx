import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { outlineButton } from "@/components/buttonStyles";
import { toast } from "@/components/toast";
import { formatCalendarDate } from "@/features/campaigns/links";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { AutomaticPayment, StopOnPhone } from "./AutomaticPayment";
import { type PledgeReceipt, useSetPlanByCode } from "./api";
import { FormButtons, FormFailure } from "./FormParts";
import { PLAN_FIELDS, PlanFields, PlanStanding } from "./PlanParts";
import { type PlanValues, planBody, planDefaults, planSchema } from "./plans";

/**
 * The pledge page's instalment plan: what it is and where the pledger stands, and 'Pay in instalments' (or
 * 'Change plan') while something remains to pay. The code in the address is the pledger's key, as for
 * paying.
 */
export function PlanPanel({
  receipt,
  heading: Heading = "h3",
}: {
  receipt: PledgeReceipt;
  heading?: "h2" | "h3";
}) {
  const { i18n } = useLingui();
  const [editing, setEditing] = useState(false);
  const plan = receipt.plan;
  if (!plan && receipt.remaining_amount === 0) return null;
  return (
    <section aria-labelledby="plan-heading" className="rounded-lg border border-slate-200 p-3">
      <Heading id="plan-heading" className="font-semibold text-slate-900">
        <Trans>Instalment plan</Trans>
      </Heading>
      {plan ? (
        <>
          <PlanStanding plan={plan} />
          {plan.next_due_on && plan.next_due_amount !== null && (
            <p className="mt-2 text-sm text-slate-700">
              <Trans>
                Next: {formatKsh(plan.next_due_amount)} by {formatCalendarDate(plan.next_due_on, i18n.locale)}
                .
              </Trans>
            </p>
          )}
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">
          <Trans>
            Pay a set amount every week or month: reminders then come a few days before each instalment, and
            none while you keep up.
          </Trans>
        </p>
      )}
      {!editing && <AutomaticPayment receipt={receipt} />}
      {receipt.remaining_amount > 0 &&
        (editing ? (
          <PlanForm receipt={receipt} onDone={() => setEditing(false)} />
        ) : (
          <button type="button" onClick={() => setEditing(true)} className={`${outlineButton} mt-3`}>
            {plan ? <Trans>Change plan</Trans> : <Trans>Pay in instalments</Trans>}
          </button>
        ))}
    </section>
  );
}

function PlanForm({ receipt, onDone }: { receipt: PledgeReceipt; onDone(): void }) {
  const { t } = useLingui();
  const plan = receipt.plan;
  const form = useSchemaForm(
    planSchema,
    plan
      ? { ...planDefaults(plan.instalment), frequency: plan.frequency }
      : planDefaults(Math.ceil(receipt.remaining_amount / 4)),
  );
  const save = useSetPlanByCode(receipt.code);
  const onSave = (values: PlanValues) =>
    save.mutate(planBody(values), {
      onSuccess: () => {
        toast({ title: t`Instalment plan saved` });
        onDone();
      },
      onError: (error) => void showFieldErrors(error, form, PLAN_FIELDS),
    });
  const order = plan?.standing_order;
  return (
    <form noValidate className="mt-3 space-y-4" onSubmit={form.handleSubmit(onSave)}>
      {order && order.status !== "failed" && (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          <Trans>
            Changing the plan does not change your M-Pesa standing order: it keeps paying the old amount.
          </Trans>{" "}
          <StopOnPhone name={order.name} />
        </p>
      )}
      <PlanFields
        register={form.register}
        errors={form.formState.errors}
        minFirstDueOn={planDefaults().firstDueOn}
        maxFirstDueOn={receipt.plan_latest_end}
      />
      <FormFailure error={save.error} fields={PLAN_FIELDS} />
      <FormButtons
        busy={save.isPending}
        submitLabel={save.isPending ? <Trans>Saving...</Trans> : <Trans>Save plan</Trans>}
        closeLabel={<Trans>Cancel</Trans>}
        onClose={onDone}
      />
    </form>
  );
}
