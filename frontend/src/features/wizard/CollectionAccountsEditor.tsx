import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { type UseFormReturn, useFieldArray, useWatch } from "react-hook-form";
import { SelectField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import {
  ACCOUNT_KINDS,
  accountName,
  canAddCollectionAccount,
  choiceOf,
  collectionAccountChoicesAreValid,
  emptyCollectionAccountChoice,
  isAccountKind,
  METHOD_FIELDS,
  METHOD_LABELS,
  optionFromChoice,
} from "@/features/collection-accounts/campaignCollectionAccounts";
import { campaignAccountsOptions } from "./api";
import type { PledgeWizardValues } from "./rules";
import { buttonSecondary } from "./WizardShell";

/** Step 5: one to three of the organization's accounts (where its own money is paid), each once,
 * chosen from its accounts or added here; the last one stays. Never Harambee's paybill. */
export function CollectionAccountsEditor({
  form,
  organizationId,
}: {
  form: UseFormReturn<PledgeWizardValues>;
  /** The organization chosen in the first step, when the user owns several. */
  organizationId: number | null;
}) {
  const { t, i18n } = useLingui();
  const accounts = useQuery(campaignAccountsOptions(organizationId)).data ?? [];
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "collectionAccounts" });
  const options = useWatch({ control: form.control, name: "collectionAccounts" });
  const errors = form.formState.errors.collectionAccounts;
  const listError = errors?.root?.message ?? errors?.message;
  const valid = collectionAccountChoicesAreValid(options);

  return (
    <div className="space-y-5">
      <p className="text-slate-700">
        <Trans>
          Tell your supporters how to pay their pledges: choose up to three of your organization's own
          accounts, or add one. The money goes straight to them; Harambee never holds it.
        </Trans>
      </p>
      {fields.map((field, index) => {
        const option = options[index] ?? { method: "", details: {} };
        const method = option.method;
        const optionErrors = errors?.[index];
        return (
          <fieldset key={field.id} className="space-y-4 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 text-sm font-semibold text-slate-800">
              <Trans>Payment method {index + 1}</Trans>
            </legend>
            <SelectField
              label={t`Method`}
              value={choiceOf(option)}
              error={optionErrors?.method?.message ?? optionErrors?.accountId?.message}
              onChange={(event) =>
                form.setValue(
                  `collectionAccounts.${index}`,
                  optionFromChoice(event.target.value, option.details),
                  {
                    shouldValidate: true,
                    shouldDirty: true,
                  },
                )
              }
            >
              <option value="">{t`Choose a method`}</option>
              {accounts.length > 0 && (
                <optgroup label={t`Your organization's accounts`}>
                  {accounts.map((account) => (
                    <option key={account.id} value={`account:${account.id}`}>
                      {accountName(account, i18n._(METHOD_LABELS[account.kind]))}
                    </option>
                  ))}
                </optgroup>
              )}
              <optgroup label={t`Add an account`}>
                {ACCOUNT_KINDS.map((choice) => (
                  <option key={choice} value={choice}>
                    {i18n._(METHOD_LABELS[choice])}
                  </option>
                ))}
              </optgroup>
            </SelectField>
            {isAccountKind(method) &&
              METHOD_FIELDS[method].map((detail) => (
                <TextField
                  key={`${method}-${detail.name}`}
                  label={detail.optional ? `${i18n._(detail.label)} ${t`(optional)`}` : i18n._(detail.label)}
                  inputMode={detail.inputMode}
                  placeholder={detail.placeholder}
                  error={optionErrors?.details?.[detail.name]?.message}
                  {...form.register(`collectionAccounts.${index}.details.${detail.name}`)}
                />
              ))}
            {fields.length > 1 && (
              <button
                type="button"
                className="text-sm font-medium text-red-700 hover:underline"
                onClick={() => remove(index)}
              >
                <Trans>Remove payment method {index + 1}</Trans>
              </button>
            )}
          </fieldset>
        );
      })}
      {canAddCollectionAccount(options) && (
        <button
          type="button"
          className={buttonSecondary}
          onClick={() => append(emptyCollectionAccountChoice())}
        >
          <Trans>Add Payment Method</Trans>
        </button>
      )}
      {listError && (
        <p role="alert" className="text-sm text-red-700">
          {listError}
        </p>
      )}
      <p
        role="status"
        className={`rounded-md p-3 text-sm ${valid ? "bg-green-50 text-green-800" : "bg-amber-50 text-amber-900"}`}
      >
        {valid ? (
          <Trans>Great! You have provided valid payment details.</Trans>
        ) : (
          <Trans>Please provide at least one valid payment method to continue.</Trans>
        )}
      </p>
    </div>
  );
}
