import { Trans, useLingui } from "@lingui/react/macro";
import { useWatch } from "react-hook-form";
import { primaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { useFailureToast, useWaitingToast } from "@/features/organizations/Approvals";
import {
  type CollectionAccount,
  isWaiting,
  useAccountAdd,
  useAccountUpdate,
} from "@/features/organizations/api";
import { ApiRequestError } from "@/lib/api/client";
import { useSchemaForm } from "@/lib/forms";
import {
  ACCOUNT_KINDS,
  type AccountFormValues,
  type AccountKind,
  accountFormSchema,
  LABEL_FIELD,
  METHOD_FIELDS,
  METHOD_LABELS,
} from "./campaignCollectionAccounts";

/** The form values of `account` (a new one: a paybill with nothing typed). */
function valuesOf(account: CollectionAccount | undefined): AccountFormValues {
  const kind: AccountKind = account?.kind ?? "paybill";
  const names = [...METHOD_FIELDS[kind], LABEL_FIELD].map((field) => field.name);
  const stored = (account ?? {}) as Record<string, unknown>;
  return { kind, ...Object.fromEntries(names.map((name) => [name, String(stored[name] ?? "")])) };
}

/**
 * Adds an account to the organization, or changes `account`'s details (its kind stays), with the
 * wizard's rules and messages; the server's refusals show under their fields. With two or more
 * owners and treasurers the change waits for another's approval: a toast says so and it joins the
 * list of waiting changes. `onDone` is called once the server took it (`waiting`: not yet applied).
 */
export function AccountForm({
  organizationId,
  account,
  onDone,
}: {
  organizationId: number;
  account?: CollectionAccount;
  onDone?: (waiting: boolean) => void;
}) {
  const { t, i18n } = useLingui();
  const add = useAccountAdd(organizationId);
  const update = useAccountUpdate(organizationId);
  const waiting = useWaitingToast();
  const failed = useFailureToast();
  const form = useSchemaForm<AccountFormValues>(accountFormSchema, valuesOf(account));
  const kind = useWatch({ control: form.control, name: "kind" });
  const { errors, isSubmitting } = form.formState;
  const fields = [...METHOD_FIELDS[kind], LABEL_FIELD];

  const onSubmit = async ({ kind: chosen, ...details }: AccountFormValues) => {
    try {
      const answer = account
        ? await update.mutateAsync({ accountId: account.id, body: details })
        : await add.mutateAsync({ kind: chosen, is_default: false, ...details });
      if (isWaiting(answer)) waiting();
      else toast({ title: account ? t`Account changed.` : t`Account added.` });
      form.reset(account ? undefined : valuesOf(undefined));
      onDone?.(isWaiting(answer));
    } catch (error) {
      const refused = error instanceof ApiRequestError ? Object.entries(error.fieldErrors) : [];
      if (refused.length === 0) return failed(error);
      refused.forEach(([name, message], index) => {
        form.setError(name, { type: "server", message }, { shouldFocus: index === 0 });
      });
    }
  };

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(onSubmit)}
      className="mt-4 grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-2"
    >
      <h3 className="text-base font-semibold text-slate-900 sm:col-span-2">
        {account ? <Trans>Change the account's details</Trans> : <Trans>Add an account</Trans>}
      </h3>
      {!account && (
        <SelectField
          label={t`Kind of account`}
          error={errors.kind?.message}
          className="sm:col-span-2"
          {...form.register("kind")}
        >
          {ACCOUNT_KINDS.map((choice) => (
            <option key={choice} value={choice}>
              {i18n._(METHOD_LABELS[choice])}
            </option>
          ))}
        </SelectField>
      )}
      {fields.map((detail) => (
        <TextField
          key={`${kind}-${detail.name}`}
          label={detail.optional ? t`${i18n._(detail.label)} (optional)` : i18n._(detail.label)}
          inputMode={detail.inputMode}
          placeholder={detail === LABEL_FIELD ? t`e.g. Building fund` : detail.placeholder}
          maxLength={detail.maxLength}
          autoComplete="off"
          error={errors[detail.name]?.message}
          {...form.register(detail.name)}
        />
      ))}
      <button
        type="submit"
        className={`${primaryButton} sm:col-span-2 sm:w-auto sm:justify-self-start`}
        disabled={isSubmitting}
      >
        {account ? <Trans>Save changes</Trans> : <Trans>Add account</Trans>}
      </button>
    </form>
  );
}
