import { Trans, useLingui } from "@lingui/react/macro";
import { type UseFormReturn, useFieldArray, useWatch } from "react-hook-form";
import { SelectField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import {
  availableMethods,
  canAddPaymentOption,
  emptyPaymentOption,
  METHOD_FIELDS,
  METHOD_LABELS,
  type PaymentMethod,
  paymentOptionsAreValid,
} from "./paymentOptions";
import type { PledgeWizardValues } from "./rules";
import { buttonSecondary } from "./WizardShell";

/** Step 5: one to three payment methods, each once, with their details; the last one stays. */
export function PaymentOptionsEditor({ form }: { form: UseFormReturn<PledgeWizardValues> }) {
  const { t, i18n } = useLingui();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "paymentOptions" });
  const options = useWatch({ control: form.control, name: "paymentOptions" });
  const errors = form.formState.errors.paymentOptions;
  const listError = errors?.root?.message ?? errors?.message;
  const valid = paymentOptionsAreValid(options);

  return (
    <div className="space-y-5">
      <p className="text-slate-700">
        <Trans>Tell your supporters how to pay their pledges. Add up to three payment methods.</Trans>
      </p>
      {fields.map((field, index) => {
        const method = options[index]?.method ?? "";
        const optionErrors = errors?.[index];
        return (
          <fieldset key={field.id} className="space-y-4 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 text-sm font-semibold text-slate-800">
              <Trans>Payment method {index + 1}</Trans>
            </legend>
            <SelectField
              label={t`Method`}
              value={method}
              error={optionErrors?.method?.message}
              onChange={(event) =>
                form.setValue(`paymentOptions.${index}.method`, event.target.value as PaymentMethod, {
                  shouldValidate: true,
                  shouldDirty: true,
                })
              }
            >
              <option value="">{t`Choose a method`}</option>
              {availableMethods(options, index).map((choice) => (
                <option key={choice} value={choice}>
                  {i18n._(METHOD_LABELS[choice])}
                </option>
              ))}
            </SelectField>
            {method &&
              METHOD_FIELDS[method].map((detail) => (
                <TextField
                  key={`${method}-${detail.name}`}
                  label={i18n._(detail.label)}
                  inputMode={detail.inputMode}
                  placeholder={detail.placeholder}
                  error={optionErrors?.details?.[detail.name]?.message}
                  {...form.register(`paymentOptions.${index}.details.${detail.name}`)}
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
      {canAddPaymentOption(options) && (
        <button type="button" className={buttonSecondary} onClick={() => append(emptyPaymentOption())}>
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
