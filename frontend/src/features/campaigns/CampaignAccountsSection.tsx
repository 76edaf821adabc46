import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useFieldArray, useWatch } from "react-hook-form";
import * as v from "valibot";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { toast } from "@/components/toast";
import {
  accountName,
  type CollectionAccountChoice,
  canAddCollectionAccount,
  collectionAccountChoicesSchema,
  METHOD_LABELS,
} from "@/features/collection-accounts/campaignCollectionAccounts";
import { Approvals, useFailureToast, useWaitingToast } from "@/features/organizations/Approvals";
import { type CollectionAccount, collectionAccountsOptions, isWaiting } from "@/features/organizations/api";
import { errorMessage } from "@/lib/api/client";
import { useSchemaForm } from "@/lib/forms";
import { type Campaign, useCampaignAccounts, useCampaignAccountsChange } from "./api";

// The wizard's rules and messages for the payment step (1 to 3, each once, the last stays), on the
// organization's existing accounts: new ones are added on its Collection accounts page.
const schema = v.object({
  collectionAccounts: collectionAccountChoicesSchema,
}) as unknown as v.GenericSchema<{
  collectionAccounts: CollectionAccountChoice[];
}>;
const chosen = (account: CollectionAccount): CollectionAccountChoice => ({
  method: "existing",
  accountId: String(account.id),
  details: {},
});

/**
 * On the campaign's edit page, for its organization's owners and treasurers: the accounts its givers
 * pay into, switched to others of the organization's accounts. With two or more owners and treasurers
 * the switch waits for another's approval, listed here until then. A legacy fundraiser's bank details
 * cannot be changed after setup.
 */
export function CampaignAccountsSection({ campaign }: { campaign: Campaign }) {
  const manages = campaign.viewer_role === "owner" || campaign.viewer_role === "treasurer";
  const legacy = campaign.type === "fundraising";
  const current = useCampaignAccounts(campaign.id, manages && !legacy);
  if (!manages) return null;
  return (
    <section
      aria-labelledby="campaign-accounts"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="campaign-accounts" className="text-lg font-semibold text-slate-900">
        <Trans>Where givers pay</Trans>
      </h2>
      {legacy ? (
        <p className="mt-2 text-sm text-slate-700">
          <Trans>Bank details cannot be changed after setup.</Trans>
        </p>
      ) : current.data ? (
        <AccountsForm campaign={campaign} current={current.data} />
      ) : (
        current.isError && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {errorMessage(current.error)}
          </p>
        )
      )}
      {!legacy && (
        <Approvals
          organizationId={campaign.organization_id}
          only={(request) => request.kind === "campaign.accounts_change"}
          intro={
            <Trans>
              With two or more owners and treasurers, a campaign's accounts change only once another of them
              approves. Requests lapse after 7 days.
            </Trans>
          }
        />
      )}
    </section>
  );
}

function AccountsForm({ campaign, current }: { campaign: Campaign; current: CollectionAccount[] }) {
  const { t, i18n } = useLingui();
  const accounts = useQuery(collectionAccountsOptions(campaign.organization_id)).data ?? current;
  const change = useCampaignAccountsChange(campaign);
  const waiting = useWaitingToast();
  const failed = useFailureToast();
  const defaults = useMemo(() => ({ collectionAccounts: current.map(chosen) }), [current]);
  const form = useSchemaForm(schema, defaults);
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "collectionAccounts" });
  const options = useWatch({ control: form.control, name: "collectionAccounts" });
  const errors = form.formState.errors.collectionAccounts;
  const listError = errors?.root?.message ?? errors?.message;

  const onSubmit = async ({ collectionAccounts }: { collectionAccounts: CollectionAccountChoice[] }) => {
    try {
      const answer = await change.mutateAsync(collectionAccounts.map((option) => Number(option.accountId)));
      if (isWaiting(answer)) waiting();
      else toast({ title: t`Givers now pay into the accounts you chose.` });
    } catch (error) {
      failed(error);
    }
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="mt-3 space-y-4">
      <p className="text-sm text-slate-600">
        <Trans>
          Choose up to three of your organization's accounts. The campaign page, receipts and messages show
          how to pay into them.
        </Trans>
      </p>
      {fields.map((field, index) => {
        const option = options[index];
        return (
          <div key={field.id} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <SelectField
              label={t`Payment method ${index + 1}`}
              className="flex-1"
              value={option?.accountId ?? ""}
              error={errors?.[index]?.accountId?.message ?? errors?.[index]?.method?.message}
              onChange={(event) =>
                form.setValue(
                  `collectionAccounts.${index}`,
                  {
                    method: event.target.value ? "existing" : "",
                    accountId: event.target.value,
                    details: {},
                  },
                  { shouldValidate: true, shouldDirty: true },
                )
              }
            >
              <option value="">{t`Choose a method`}</option>
              {accounts.map((account) => (
                <option key={account.id} value={String(account.id)}>
                  {accountName(account, i18n._(METHOD_LABELS[account.kind]))}
                </option>
              ))}
            </SelectField>
            {fields.length > 1 && (
              <button type="button" className={outlineButton} onClick={() => remove(index)}>
                <Trans>Remove payment method {index + 1}</Trans>
              </button>
            )}
          </div>
        );
      })}
      {canAddCollectionAccount(options) && (
        <button
          type="button"
          className={outlineButton}
          onClick={() => append({ method: "", accountId: "", details: {} })}
        >
          <Trans>Add Payment Method</Trans>
        </button>
      )}
      {listError && (
        <p role="alert" className="text-sm text-red-700">
          {listError}
        </p>
      )}
      <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={change.isPending}>
        <Trans>Save payment accounts</Trans>
      </button>
    </form>
  );
}
