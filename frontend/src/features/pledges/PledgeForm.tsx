import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { primaryButton } from "@/components/buttonStyles";
import { CheckboxField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { type Campaign, campaignKeys } from "@/features/campaigns/api";
import { ApiRequestError } from "@/lib/api/client";
import { serverFieldErrors, showFieldErrors, useSchemaForm } from "@/lib/forms";
import { useSessionReady } from "@/lib/session";
import type { PledgeReceipt } from "./api";
import { championOfPledgePage, createPledge, usePledgeFormPage } from "./api";
import { PLAN_FIELDS, PlanFields } from "./PlanParts";
import { type PledgeWithPlanValues, planBody, planDefaults, pledgeWithPlanSchema } from "./plans";
import { parseWholeKes, pledgeMissingFields } from "./rules";

const FIELDS = ["name", "email", "phone", "amount", ...PLAN_FIELDS] as const;
const EMPTY: PledgeWithPlanValues = {
  name: "",
  email: "",
  phone: "",
  amount: "",
  isAnonymous: false,
  payInInstalments: false,
  ...planDefaults(),
};

type Props = {
  campaign: Campaign | undefined;
  onPledged(receipt: PledgeReceipt): void;
  onCancel?(): void;
};

/** Name, e-mail, Kenyan phone, whole amount, the anonymous option and, if chosen, an instalment plan;
 * answers the pledge with its code.
 *
 * It is also a plain HTML form (method, action, field names, CSRF token): on a page the server
 * rendered, it posts to the server without JavaScript (backend/config/pledge_form.py), which sends
 * the page back with what was typed and its messages when it refuses it. With JavaScript the submit
 * handler takes over and the API records the pledge. */
export function PledgeForm({ campaign, onPledged, onCancel }: Props) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const sessionReady = useSessionReady();
  const page = usePledgeFormPage(campaign?.id);
  const [initial] = useState(() => ({
    values: { ...EMPTY, ...page?.values } as PledgeWithPlanValues,
    errors: page?.error
      ? serverFieldErrors<PledgeWithPlanValues>(page.error.field_errors, FIELDS)
      : undefined,
  }));
  const form = useSchemaForm(pledgeWithPlanSchema, initial.values, initial.errors);
  const payInInstalments = form.watch("payInInstalments");
  const { errors } = form.formState;
  const [missing, setMissing] = useState(false);
  // The server's refusal of the form sent without JavaScript, until it is sent again.
  const [refused, setRefused] = useState(page?.error ?? null);
  const fallback = t`There was an error recording your pledge. Please try again.`;

  const pledge = useMutation({
    mutationFn: async ({ values, campaignId }: { values: PledgeWithPlanValues; campaignId: number }) => {
      await sessionReady();
      return await createPledge(
        {
          campaign_id: campaignId,
          name: values.name,
          email: values.email,
          phone: values.phone,
          amount: parseWholeKes(values.amount),
          is_anonymous: values.isAnonymous,
          plan: values.payInInstalments ? planBody(values) : null,
        },
        fallback,
        championOfPledgePage(),
      );
    },
    onSuccess: (receipt) => {
      toast({ title: t`Thank you! Your pledge has been recorded successfully.` });
      // The campaign's pledged total and its list of pledges now include this one.
      void queryClient.invalidateQueries({ queryKey: campaignKeys.detail(receipt.campaign_id) });
      onPledged(receipt);
    },
    onError: (error) => void showFieldErrors(error, form, FIELDS),
  });

  // Field errors show under their fields; the reason for any other failure (e.g. a campaign that has
  // just closed) goes under the spec's message.
  const error = pledge.error;
  const apiError = error instanceof ApiRequestError ? error : null;
  const failure = error && !FIELDS.some((field) => apiError?.fieldErrors[field]);
  const failureDetail = apiError && apiError.message !== fallback ? apiError.message : null;

  const submit = form.handleSubmit(
    (values) => {
      setMissing(false);
      setRefused(null);
      if (!campaign) {
        toast({ title: t`Campaign not loaded`, variant: "destructive" });
        return;
      }
      pledge.mutate({ values, campaignId: campaign.id });
    },
    () => {
      setRefused(null);
      setMissing(pledgeMissingFields(form.getValues()));
    },
  );
  const values = initial.values;

  return (
    <form
      noValidate
      method="post"
      action={campaign ? `/campaign/${campaign.id}/pledge` : undefined}
      onSubmit={submit}
      className="space-y-4"
    >
      {page && <input type="hidden" name="csrfmiddlewaretoken" value={page.csrf_token} />}
      <TextField
        label={t`Full name`}
        autoComplete="name"
        defaultValue={values.name}
        error={errors.name?.message}
        {...form.register("name")}
      />
      <TextField
        label={t`Email`}
        type="email"
        autoComplete="email"
        defaultValue={values.email}
        error={errors.email?.message}
        {...form.register("email")}
      />
      <TextField
        label={t`Phone number`}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        placeholder="0712 345 678"
        defaultValue={values.phone}
        hint={<Trans>Your M-Pesa number: reminders and the payment prompt come to it.</Trans>}
        error={errors.phone?.message}
        {...form.register("phone")}
      />
      <TextField
        label={t`Amount (Ksh)`}
        inputMode="numeric"
        autoComplete="off"
        placeholder="5,000"
        defaultValue={values.amount}
        error={errors.amount?.message}
        {...form.register("amount")}
      />
      <CheckboxField
        className="rounded-md bg-slate-50 p-3"
        label={<Trans>Pledge anonymously</Trans>}
        note={
          <Trans>
            Others see 'Anonymous' instead of your name. The organizer still sees your details so they can
            follow up on your pledge.
          </Trans>
        }
        defaultChecked={values.isAnonymous}
        {...form.register("isAnonymous")}
      />
      <fieldset className="space-y-4 rounded-md bg-slate-50 p-3">
        <legend className="sr-only">
          <Trans>Pay in instalments</Trans>
        </legend>
        <CheckboxField
          label={<Trans>Pay in instalments</Trans>}
          note={
            <Trans>
              Choose an amount every week or month: reminders then come a few days before each instalment, and
              none while you keep up.
            </Trans>
          }
          defaultChecked={values.payInInstalments}
          {...form.register("payInInstalments")}
        />
        {payInInstalments && (
          <PlanFields
            register={form.register}
            errors={errors}
            defaults={values}
            minFirstDueOn={planDefaults().firstDueOn}
            maxFirstDueOn={campaign?.instalments_past_end ? undefined : campaign?.end_date}
          />
        )}
      </fieldset>
      {refused && (
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {Object.keys(refused.field_errors).length === 0 && (
            <p>
              <Trans>There was an error recording your pledge. Please try again.</Trans>
            </p>
          )}
          <p>{refused.detail}</p>
        </div>
      )}
      {missing && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          <Trans>Please fill in all required fields</Trans>
        </p>
      )}
      {failure && (
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          <p>
            <Trans>There was an error recording your pledge. Please try again.</Trans>
          </p>
          {failureDetail && <p className="mt-1">{failureDetail}</p>}
        </div>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel && (
          <button
            type="button"
            onClick={onCancel}
            className="rounded-md border border-slate-300 px-4 py-2.5 font-medium text-slate-700 hover:bg-slate-50"
          >
            <Trans>Cancel</Trans>
          </button>
        )}
        <button type="submit" disabled={pledge.isPending} className={`${primaryButton} sm:w-auto`}>
          {pledge.isPending ? <Trans>Recording your pledge...</Trans> : <Trans>Submit pledge</Trans>}
        </button>
      </div>
    </form>
  );
}
