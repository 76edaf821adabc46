import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { useWaitingToast } from "@/features/organizations/Approvals";
import { isWaiting } from "@/features/organizations/api";
import {
  type OrganizationAccount as Account,
  type CollectionAccount,
  useCollectionAccount,
  useSetUpCards,
} from "@/features/payments/api";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { AccountPage } from "./AccountPage";

/**
 * /orgs/{id}/collection-accounts/{account}/cards, for the organization's owners and treasurers (the
 * server refuses anyone else): card donations to the organization's campaigns settle to this bank
 * account through a Paystack subaccount; without one its campaigns offer no card payment.
 */
export default function CardPaymentsPage() {
  return (
    <AccountPage pending={(request) => request.kind.startsWith("cards.")}>
      {(account) => <CardPaymentsLoader account={account} />}
    </AccountPage>
  );
}

export function CardPaymentsLoader({ account }: { account: Account }) {
  const { t } = useLingui();
  const found = useCollectionAccount(account);
  if (found.data) return <CardPaymentsView account={account} details={found.data} />;
  if (found.data === null) {
    return (
      <p>
        <Trans>Account not found.</Trans>
      </p>
    );
  }
  if (found.isError) {
    return (
      <PageLoadError
        message={errorMessage(found.error, t`Failed to load the account.`)}
        retry={() => void found.refetch()}
      />
    );
  }
  return <LoadingPlaceholder className="h-64" />;
}

function CardPaymentsView({ account, details }: { account: Account; details: CollectionAccount }) {
  const { t } = useLingui();
  const setUp = useSetUpCards(account);
  const waiting = useWaitingToast();
  const [bankCode, setBankCode] = useState(details.card_settlement_bank);
  const fieldErrors = setUp.error instanceof ApiRequestError ? setUp.error.fieldErrors : {};
  const bank = `${details.bank_name} ${details.account_number}`;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setUp.mutate(bankCode, {
      onSuccess: (answer) =>
        isWaiting(answer) ? waiting() : toast({ title: t`Card payments now settle to ${bank}.` }),
    });
  };
  return (
    <section aria-labelledby="cards-heading" className="space-y-5">
      <div>
        <h1 id="cards-heading" className="text-2xl font-bold text-slate-900">
          <Trans>Card payments: {bank}</Trans>
        </h1>
        <p className="mt-2 text-slate-700">
          <Trans>
            Givers can pay your campaigns by card once a bank account takes them: our payment partner,
            Paystack, pays every card gift straight into it, less its fee. Harambee keeps nothing.
          </Trans>
        </p>
      </div>
      <p role="status" className="rounded-md bg-slate-50 p-3 text-sm text-slate-800">
        {details.takes_cards ? (
          <Trans>Card payments settle to this account.</Trans>
        ) : (
          <Trans>This account takes no card payments yet.</Trans>
        )}
      </p>
      {details.kind === "bank" ? (
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <TextField
            label={t`Bank code at Paystack`}
            hint={t`Your bank's code in Paystack's list of banks. Paystack checks the account number with the bank.`}
            autoComplete="off"
            value={bankCode}
            error={fieldErrors.settlement_bank}
            onChange={(event) => setBankCode(event.target.value)}
          />
          {setUp.isError && !fieldErrors.settlement_bank && (
            <p role="alert" className="text-sm text-red-700">
              {errorMessage(setUp.error)}
            </p>
          )}
          <button type="submit" className={primaryButton} disabled={setUp.isPending}>
            {setUp.isPending ? <Trans>Saving...</Trans> : <Trans>Take card payments here</Trans>}
          </button>
        </form>
      ) : (
        <p>
          <Trans>Card payments settle to a bank account: choose one.</Trans>
        </p>
      )}
    </section>
  );
}
