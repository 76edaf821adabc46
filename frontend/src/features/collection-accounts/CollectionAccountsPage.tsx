import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { Approvals, card, useFailureToast, useWaitingToast } from "@/features/organizations/Approvals";
import {
  type CollectionAccount,
  isWaiting,
  type Organization,
  useAccountKeywords,
  useAccountKeywordsSet,
  useAccountRemove,
  useAccountUpdate,
  useCollectionAccounts,
} from "@/features/organizations/api";
import { OrganizationLoader } from "@/features/organizations/OrganizationLoader";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { AccountForm } from "./AccountForm";
import { accountName, METHOD_LABELS } from "./campaignCollectionAccounts";

/** The team's own changes; every other kind is about where the money is paid. */
const isPaymentDetail = (request: { kind: string }) => !request.kind.startsWith("team.");
const MPESA_KINDS: string[] = ["paybill", "till"];

/**
 * /organizations/{id}/collection-accounts: where the organization's money is paid (its own paybill,
 * till, bank account, cash point) and the account-number keywords that are not for Harambee. Every
 * member sees them; owners and treasurers change them, under the two-person rule.
 */
export default function CollectionAccountsPage() {
  return (
    <OrganizationLoader>
      {(organization) => <CollectionAccountsView organization={organization} />}
    </OrganizationLoader>
  );
}

function CollectionAccountsView({ organization }: { organization: Organization }) {
  const id = organization.id;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <p>
        <Link href={`/organizations/${id}`} className="text-sm font-medium text-brand-700 underline">
          <Trans>Back to {organization.name}</Trans>
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold text-slate-900">
        <Trans>Collection accounts</Trans>
      </h1>
      <p className="mt-1 text-slate-600">
        <Trans>
          Givers pay straight into these accounts of {organization.name}. Harambee never holds your money: it
          only tells givers where to pay and matches their payments to their pledges by the pledge code.
        </Trans>
      </p>
      <Approvals
        organizationId={id}
        only={isPaymentDetail}
        intro={
          <Trans>
            With two or more owners and treasurers, adding, changing or removing an account, switching a
            campaign's accounts, the M-Pesa connection, M-Pesa Ratiba and card payments take effect only once
            another of them approves. Requests lapse after 7 days.
          </Trans>
        }
      />
      <Accounts organization={organization} />
      <Keywords organization={organization} />
    </div>
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
  const [editing, setEditing] = useState<number | null>(null);
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
            <li key={account.id} className="py-3">
              <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
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
                    <button
                      type="button"
                      className={outlineButton}
                      aria-expanded={editing === account.id}
                      onClick={() => setEditing(editing === account.id ? null : account.id)}
                      aria-label={t`Change ${name(account)}`}
                    >
                      <Trans>Change</Trans>
                    </button>
                    {MPESA_KINDS.includes(account.kind) && (
                      <Link
                        href={`/orgs/${organization.id}/collection-accounts/${account.id}/mpesa`}
                        className={outlineButton}
                        aria-label={t`M-Pesa connection of ${name(account)}`}
                      >
                        <Trans>M-Pesa connection</Trans>
                      </Link>
                    )}
                    {account.kind === "airtel_money" && (
                      <Link
                        href={`/orgs/${organization.id}/collection-accounts/${account.id}/airtel`}
                        className={outlineButton}
                        aria-label={t`Airtel Money credentials of ${name(account)}`}
                      >
                        <Trans>Airtel Money credentials</Trans>
                      </Link>
                    )}
                    {account.kind === "bank" && (
                      <Link
                        href={`/orgs/${organization.id}/collection-accounts/${account.id}/cards`}
                        className={outlineButton}
                        aria-label={t`Card payments into ${name(account)}`}
                      >
                        <Trans>Card payments</Trans>
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
              </div>
              {manager && editing === account.id && (
                <AccountForm
                  key={account.id}
                  organizationId={organization.id}
                  account={account}
                  onDone={() => setEditing(null)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {manager && <AccountForm organizationId={organization.id} />}
    </section>
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
