import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import {
  ACCOUNT_KINDS,
  type AccountKind,
  accountName,
  METHOD_FIELDS,
  METHOD_LABELS,
} from "@/features/wizard/paymentOptions";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { Approvals, card, useFailureToast, useWaitingToast } from "./Approvals";
import {
  type CollectionAccount,
  isWaiting,
  type Organization,
  useAccountAdd,
  useAccountKeywords,
  useAccountKeywordsSet,
  useAccountRemove,
  useAccountUpdate,
  useCollectionAccounts,
  useOrganization,
} from "./api";

/** The team's own changes; every other kind is about where the money is paid. */
const isPaymentDetail = (request: { kind: string }) => !request.kind.startsWith("team.");
const MPESA_KINDS: string[] = ["paybill", "till"];

/**
 * /organizations/{id}/collection-accounts: where the organization's money is paid (its own paybill,
 * till, bank account, cash point) and the account-number keywords that are not for Harambee. Every
 * member sees them; owners and treasurers change them, under the two-person rule.
 */
export default function CollectionAccountsPage() {
  const { t } = useLingui();
  const id = Number(useParams<{ id?: string }>().id);
  const organization = useOrganization(id);
  return (
    <AppLayout>
      {organization.isPending ? (
        <PageSkeleton />
      ) : organization.isError ? (
        <PageLoadError
          message={errorMessage(organization.error, t`Could not load this organization.`)}
          retry={() => void organization.refetch()}
        />
      ) : (
        <div className="mx-auto w-full max-w-3xl px-4 py-8">
          <p>
            <Link href={`/organizations/${id}`} className="text-sm font-medium text-brand-700 underline">
              <Trans>Back to {organization.data.name}</Trans>
            </Link>
          </p>
          <h1 className="mt-2 text-2xl font-bold text-slate-900">
            <Trans>Collection accounts</Trans>
          </h1>
          <p className="mt-1 text-slate-600">
            <Trans>
              Givers pay straight into these accounts of {organization.data.name}. Harambee never holds your
              money: it only tells givers where to pay and matches their payments to their pledges by the
              pledge code.
            </Trans>
          </p>
          <Approvals
            organizationId={id}
            only={isPaymentDetail}
            intro={
              <Trans>
                With two or more owners and treasurers, adding, changing or removing an account, switching a
                campaign's accounts and the M-Pesa connection take effect only once another of them approves.
                Requests lapse after 7 days.
              </Trans>
            }
          />
          <Accounts organization={organization.data} />
          <Keywords organization={organization.data} />
        </div>
      )}
    </AppLayout>
  );
}

const managesPayments = (organization: Organization) =>
  organization.role === "owner" || organization.role === "treasurer";

function Accounts({ organization }: { organization: Organization }) {
  const { t, i18n } = useLingui();
  const accounts = useCollectionAccounts(organization.id);
  const update = useAccountUpdate(organization.id);
  const remove = useAccountRemove(organization.id);
  const waiting = useWaitingToast();
  const failed = useFailureToast();
  const manager = managesPayments(organization);
  const name = (account: CollectionAccount) => accountName(account, i18n._(METHOD_LABELS[account.kind]));

  const onDefault = (account: CollectionAccount) =>
    update.mutate(
      { accountId: account.id, body: { is_default: true } },
      {
        onSuccess: (answer) =>
          isWaiting(answer) ? waiting() : toast({ title: t`${name(account)} is now the default account.` }),
        onError: failed,
      },
    );
  const onRemove = (account: CollectionAccount) =>
    remove.mutate(account.id, {
      onSuccess: (answer) =>
        isWaiting(answer) ? waiting() : toast({ title: t`${name(account)} was removed.` }),
      onError: failed,
    });

  return (
    <section aria-labelledby="accounts" className={card}>
      <h2 id="accounts" className="text-lg font-semibold text-slate-900">
        <Trans>Accounts</Trans>
      </h2>
      {!manager && (
        <p className="mt-1 text-sm text-slate-600">
          <Trans>Only owners and treasurers can change where the money is paid.</Trans>
        </p>
      )}
      {accounts.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {errorMessage(accounts.error)}
        </p>
      ) : accounts.data?.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          <Trans>No accounts yet.</Trans>
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {accounts.data?.map((account) => (
            <li
              key={account.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{name(account)}</p>
                <p className="text-sm text-slate-600">
                  {account.is_default && (
                    <span className="mr-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
                      <Trans>Default</Trans>
                    </span>
                  )}
                  {MPESA_KINDS.includes(account.kind) &&
                    (account.offers_stk_push ? (
                      <Trans>Connected to M-Pesa: givers get PIN prompts.</Trans>
                    ) : (
                      <Trans>Not connected to M-Pesa: matched by statement or by hand.</Trans>
                    ))}
                </p>
              </div>
              {manager && (
                <div className="flex flex-wrap gap-2">
                  {MPESA_KINDS.includes(account.kind) && (
                    <Link
                      href={`/orgs/${organization.id}/collection-accounts/${account.id}/mpesa`}
                      className={outlineButton}
                      aria-label={t`M-Pesa connection of ${name(account)}`}
                    >
                      <Trans>M-Pesa connection</Trans>
                    </Link>
                  )}
                  {!account.is_default && (
                    <button
                      type="button"
                      className={outlineButton}
                      disabled={update.isPending}
                      onClick={() => onDefault(account)}
                      aria-label={t`Make ${name(account)} the default`}
                    >
                      <Trans>Make default</Trans>
                    </button>
                  )}
                  <button
                    type="button"
                    className={outlineButton}
                    disabled={remove.isPending}
                    onClick={() => onRemove(account)}
                    aria-label={t`Remove ${name(account)}`}
                  >
                    <Trans>Remove</Trans>
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {manager && <AccountForm organizationId={organization.id} />}
    </section>
  );
}

function AccountForm({ organizationId }: { organizationId: number }) {
  const { t, i18n } = useLingui();
  const add = useAccountAdd(organizationId);
  const waiting = useWaitingToast();
  const failed = useFailureToast();
  const [kind, setKind] = useState<AccountKind>("paybill");
  const [details, setDetails] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    add.mutate(
      { kind, is_default: false, ...details },
      {
        onSuccess: (answer) => {
          setDetails({});
          if (isWaiting(answer)) waiting();
          else toast({ title: t`Account added.` });
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && Object.keys(error.fieldErrors).length)
            setErrors(error.fieldErrors);
          else failed(error);
        },
      },
    );
  };
  const field = (name: string) => ({
    value: details[name] ?? "",
    error: errors[name],
    onChange: (event: { target: { value: string } }) =>
      setDetails({ ...details, [name]: event.target.value }),
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="mt-4 grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-2"
    >
      <h3 className="text-base font-semibold text-slate-900 sm:col-span-2">
        <Trans>Add an account</Trans>
      </h3>
      <SelectField
        label={t`Kind of account`}
        value={kind}
        error={errors.kind}
        onChange={(event) => setKind(event.target.value as AccountKind)}
        className="sm:col-span-2"
      >
        {ACCOUNT_KINDS.map((choice) => (
          <option key={choice} value={choice}>
            {i18n._(METHOD_LABELS[choice])}
          </option>
        ))}
      </SelectField>
      {METHOD_FIELDS[kind].map((detail) => (
        <TextField
          key={`${kind}-${detail.name}`}
          label={detail.optional ? t`${i18n._(detail.label)} (optional)` : i18n._(detail.label)}
          inputMode={detail.inputMode}
          placeholder={detail.placeholder}
          maxLength={detail.maxLength}
          autoComplete="off"
          {...field(detail.name)}
        />
      ))}
      <TextField
        label={t`Name for the team (optional)`}
        placeholder={t`e.g. Building fund`}
        maxLength={80}
        autoComplete="off"
        {...field("label")}
      />
      <button
        type="submit"
        className={`${primaryButton} sm:col-span-2 sm:w-auto sm:justify-self-start`}
        disabled={add.isPending}
      >
        <Trans>Add account</Trans>
      </button>
    </form>
  );
}

function Keywords({ organization }: { organization: Organization }) {
  const { t } = useLingui();
  const keywords = useAccountKeywords(organization.id);
  const save = useAccountKeywordsSet(organization.id);
  const failed = useFailureToast();
  const [draft, setDraft] = useState<string | null>(null);
  const manager = managesPayments(organization);
  const current = keywords.data?.keywords ?? [];
  const error = save.error instanceof ApiRequestError ? save.error.fieldErrors.keywords : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = (draft ?? current.join(", "))
      .split(/[,\n]/)
      .map((word) => word.trim())
      .filter(Boolean);
    save.mutate(wanted, {
      onSuccess: () => {
        setDraft(null);
        toast({ title: t`Keywords saved.` });
      },
      onError: (failure) => {
        if (!(failure instanceof ApiRequestError && failure.fieldErrors.keywords)) failed(failure);
      },
    });
  };

  return (
    <section aria-labelledby="keywords" className={card}>
      <h2 id="keywords" className="text-lg font-semibold text-slate-900">
        <Trans>Account numbers that are not for Harambee</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>
          Your paybill also receives tithes and offerings. Payments with one of these account numbers (e.g.
          TITHE, OFFERING, SADAKA) are kept aside and never listed as unmatched.
        </Trans>
      </p>
      {manager ? (
        <form noValidate onSubmit={onSubmit} className="mt-3 space-y-3">
          <TextField
            label={t`Keywords, separated by commas`}
            value={draft ?? current.join(", ")}
            onChange={(event) => setDraft(event.target.value)}
            error={error}
            autoComplete="off"
            autoCapitalize="characters"
          />
          <button
            type="submit"
            className={`${primaryButton} sm:w-auto`}
            disabled={save.isPending || keywords.isPending}
          >
            <Trans>Save keywords</Trans>
          </button>
        </form>
      ) : current.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          <Trans>None yet.</Trans>
        </p>
      ) : (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label={t`Keywords`}>
          {current.map((keyword) => (
            <li
              key={keyword}
              className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800"
            >
              {keyword}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
