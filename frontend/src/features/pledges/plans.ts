import { msg, plural } from "@lingui/core/macro";
import * as v from "valibot";
import { todayIso } from "@/features/campaigns/rules";
import type { Schemas } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import { formatKsh } from "@/lib/money";
import { parseWholeKes, pledgeSchema, say, wholeKes } from "./rules";

// Instalment plans (the rule itself: backend/pledges/instalments.py): the form's fields and how a
// pledger's standing is said.

export type Plan = Schemas["PlanOut"];
export type Frequency = Schemas["PlanIn"]["frequency"];

/** The plan's fields, as in every form that sets one (pledging, the pledge page, Pledge Management). */
export const planEntries = {
  instalment: wholeKes(msg`Please enter a whole instalment of at least Ksh 1`),
  frequency: v.picklist(["weekly", "monthly"] as const),
  firstDueOn: v.pipe(v.string(), v.nonEmpty(say(msg`Please choose when the first instalment falls due.`))),
};

export const planSchema = v.object(planEntries);
export type PlanValues = v.InferInput<typeof planSchema>;

/** Monthly from today, with the instalment `amount` suggests (empty when there is none). */
export function planDefaults(instalment?: number): PlanValues {
  return { instalment: instalment ? String(instalment) : "", frequency: "monthly", firstDueOn: todayIso() };
}

export function planBody(values: PlanValues): Schemas["PlanIn"] {
  return {
    instalment: parseWholeKes(values.instalment) ?? 0,
    frequency: values.frequency,
    first_due_on: values.firstDueOn,
  };
}

/** 'Ksh 5,000 a month' or 'Ksh 5,000 a week'. */
export function planCadence(plan: Pick<Plan, "instalment" | "frequency">): string {
  const amount = formatKsh(plan.instalment);
  return plan.frequency === "weekly" ? i18n._(msg`${amount} a week`) : i18n._(msg`${amount} a month`);
}

/** 'On track', 'Ahead', or 'Behind by 2 instalments (Ksh 10,000)'. */
export function planStandingLabel(plan: Plan): string {
  if (plan.standing === "ahead") return i18n._(msg`Ahead`);
  if (plan.standing === "on_track") return i18n._(msg`On track`);
  const owed = formatKsh(plan.behind_amount);
  return i18n._(
    msg`${plural(plan.behind_count, {
      one: `Behind by # instalment (${owed})`,
      other: `Behind by # instalments (${owed})`,
    })}`,
  );
}

/** The pledge form with its optional 'Pay in instalments' section: the plan's fields count only when chosen. */
export const pledgeWithPlanSchema = v.pipe(
  v.object({
    ...pledgeSchema.entries,
    payInInstalments: v.boolean(),
    instalment: v.string(),
    frequency: planEntries.frequency,
    firstDueOn: v.string(),
  }),
  v.forward(
    v.partialCheck(
      [["payInInstalments"], ["instalment"]],
      (input) => !input.payInInstalments || parseWholeKes(input.instalment) !== null,
      say(msg`Please enter a whole instalment of at least Ksh 1`),
    ),
    ["instalment"],
  ),
  v.forward(
    v.partialCheck(
      [["payInInstalments"], ["firstDueOn"]],
      (input) => !input.payInInstalments || input.firstDueOn !== "",
      say(msg`Please choose when the first instalment falls due.`),
    ),
    ["firstDueOn"],
  ),
);

export type PledgeWithPlanValues = v.InferInput<typeof pledgeWithPlanSchema>;
