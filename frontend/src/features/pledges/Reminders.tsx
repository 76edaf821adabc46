import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import * as v from "valibot";
import { outlineButton } from "@/components/buttonStyles";
import { Disclosure } from "@/components/Disclosure";
import { CheckboxField } from "@/components/FieldControls";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { toast } from "@/components/toast";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { LoadFailed } from "./LoadFailed";
import {
  type ManagedPledge,
  type ReminderSettings,
  useReminderSettings,
  useRemindPledger,
  useSaveReminderSettings,
} from "./managementApi";
import { reminderOffsetLabel } from "./reminders";
import { say } from "./rules";

/** 'Remind': one reminder by SMS and e-mail now. The server allows one an hour per pledge and says so.
 * Not shown for a paid pledge: there is nothing to remind of, and its status already says it is paid. */
export function RemindButton({ pledge }: { pledge: ManagedPledge }) {
  if (pledge.status === "confirmed") return null;
  return <UnpaidRemindButton pledge={pledge} />;
}

function UnpaidRemindButton({ pledge }: { pledge: ManagedPledge }) {
  const { t } = useLingui();
  const remind = useRemindPledger(pledge);
  const onRemind = () =>
    remind.mutate(undefined, {
      onSuccess: () => toast({ title: t`Reminder sent to ${pledge.name}.` }),
      onError: (error) => toast({ title: errorMessage(error), variant: "destructive" }),
    });
  return (
    <button
      type="button"
      disabled={remind.isPending}
      onClick={onRemind}
      className="py-1 text-sm font-medium whitespace-nowrap text-brand-700 hover:underline disabled:cursor-not-allowed disabled:text-slate-400 disabled:no-underline"
    >
      {remind.isPending ? <Trans>Sending...</Trans> : <Trans>Remind</Trans>}
      <span className="sr-only">: {pledge.name}</span>
    </button>
  );
}

const settingsSchema = v.pipe(
  v.object({ enabled: v.boolean(), offsets: v.array(v.string()), newPledgeDigest: v.boolean() }),
  v.forward(
    v.check(
      (values) => !values.enabled || values.offsets.length > 0,
      say(msg`Choose at least one reminder time, or turn reminders off.`),
    ),
    ["offsets"],
  ),
);
type SettingsValues = v.InferInput<typeof settingsSchema>;
const FIELDS = ["enabled", "offsets", "newPledgeDigest"] as const;

/** The organizer's reminder settings, folded away until asked for: most never change the defaults. */
export function ReminderSettingsPanel({ campaignId }: { campaignId: number }) {
  return (
    <Disclosure label={() => <Trans>Reminders and new-pledge e-mails</Trans>}>
      {() => <SettingsLoader campaignId={campaignId} />}
    </Disclosure>
  );
}

function SettingsLoader({ campaignId }: { campaignId: number }) {
  const settings = useReminderSettings(campaignId);
  if (settings.isError) return <LoadFailed error={settings.error} retry={() => void settings.refetch()} />;
  if (!settings.data) return <LoadingPlaceholder className="mt-2 h-48 rounded-lg bg-slate-100" />;
  return <SettingsForm campaignId={campaignId} settings={settings.data} />;
}

function SettingsForm({ campaignId, settings }: { campaignId: number; settings: ReminderSettings }) {
  const { t } = useLingui();
  const ids = useId();
  const form = useSchemaForm(settingsSchema, {
    enabled: settings.enabled,
    offsets: settings.offsets,
    newPledgeDigest: settings.new_pledge_digest,
  });
  const { errors } = form.formState;
  const enabled = form.watch("enabled");
  const save = useSaveReminderSettings(campaignId);
  const onSubmit = (values: SettingsValues) =>
    save.mutate(
      { enabled: values.enabled, offsets: values.offsets, new_pledge_digest: values.newPledgeDigest },
      {
        onSuccess: () => toast({ title: t`Reminder settings saved.` }),
        onError: (error) => void showFieldErrors(error, form, FIELDS),
      },
    );
  const offsetsError = errors.offsets?.message ?? errors.offsets?.root?.message;
  const failure =
    save.error &&
    !FIELDS.some((field) => save.error instanceof ApiRequestError && save.error.fieldErrors[field])
      ? errorMessage(save.error)
      : null;
  return (
    <form
      noValidate
      aria-label={t`Reminder settings`}
      className="mt-3 space-y-4 rounded-lg border border-slate-200 bg-white p-4"
      onSubmit={form.handleSubmit(onSubmit)}
    >
      <CheckboxField
        label={<Trans>Remind pledgers who have not paid in full, by SMS and e-mail</Trans>}
        {...form.register("enabled")}
      />
      <fieldset disabled={!enabled} aria-describedby={offsetsError ? `${ids}-offsets-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">
          <Trans>When to remind</Trans>
        </legend>
        <p className="text-sm text-slate-600">
          <Trans>Never between 9 pm and 7 am, and never once a pledge is paid.</Trans>
        </p>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {settings.offset_choices.map((offset) => (
            <CheckboxField
              key={offset}
              label={reminderOffsetLabel(offset)}
              value={offset}
              {...form.register("offsets")}
            />
          ))}
        </div>
        {offsetsError && (
          <p id={`${ids}-offsets-error`} role="alert" className="mt-2 text-sm text-red-700">
            {offsetsError}
          </p>
        )}
      </fieldset>
      <CheckboxField
        label={<Trans>Send me one e-mail a day listing new pledges, instead of one e-mail per pledge</Trans>}
        {...form.register("newPledgeDigest")}
      />
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {failure}
        </p>
      )}
      <button type="submit" disabled={save.isPending} className={outlineButton}>
        {save.isPending ? <Trans>Saving...</Trans> : <Trans>Save reminder settings</Trans>}
      </button>
    </form>
  );
}
