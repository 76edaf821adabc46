import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { useWaitingToast } from "@/features/organizations/Approvals";
import { isWaiting } from "@/features/organizations/api";
import type { OrganizationAccount as Account } from "@/features/payments/api";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { AccountPage } from "./AccountPage";
import { type AirtelConnection, useAirtelConnection, useSaveAirtelCredentials } from "./airtelApi";

/**
 * /orgs/{id}/collection-accounts/{account}/airtel, for the organization's owners and treasurers (the
 * server refuses anyone else): the Airtel Money account's Airtel app credentials, written once and never
 * shown again (the two-person rule applies), and the callback URL to enter in Airtel's portal.
 */
export default function AirtelConnectionPage() {
  return (
    <AccountPage pending={(request) => request.kind.startsWith("airtel.")}>
      {(account) => <AirtelLoader account={account} />}
    </AccountPage>
  );
}

function AirtelLoader({ account }: { account: Account }) {
  const { t } = useLingui();
  const found = useAirtelConnection(account);
  if (found.data) return <AirtelView account={account} connection={found.data} />;
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

function AirtelView({ account, connection }: { account: Account; connection: AirtelConnection }) {
  const { t } = useLingui();
  const save = useSaveAirtelCredentials(account);
  const waiting = useWaitingToast();
  const [values, setValues] = useState({ client_id: "", client_secret: "", callback_key: "" });
  const fieldErrors = save.error instanceof ApiRequestError ? save.error.fieldErrors : {};
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(values, {
      onSuccess: (answer) => {
        setValues({ client_id: "", client_secret: "", callback_key: "" });
        if (isWaiting(answer)) waiting();
        else toast({ title: t`The Airtel Money credentials are saved.` });
      },
    });
  };
  const field = (name: keyof typeof values) => ({
    value: values[name],
    error: fieldErrors[name],
    autoComplete: "off",
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
  });
  return (
    <section aria-labelledby="airtel-heading" className="space-y-5">
      <div>
        <h1 id="airtel-heading" className="text-2xl font-bold text-slate-900">
          <Trans>Airtel Money: {connection.merchant_msisdn}</Trans>
        </h1>
        <p className="mt-2 text-slate-700">
          <Trans>
            Givers on Airtel lines get a prompt for their Airtel Money PIN once this account has its Airtel
            app's credentials (Airtel's developer portal, Key Management). They are stored encrypted and never
            shown again: leave a field blank to keep it.
          </Trans>
        </p>
      </div>
      <p role="status" className="rounded-md bg-slate-50 p-3 text-sm text-slate-800">
        {connection.credentials_set ? (
          <Trans>Credentials set: givers can pay by Airtel Money push.</Trans>
        ) : (
          <Trans>No credentials yet: no Airtel Money prompts.</Trans>
        )}
      </p>
      {connection.callback_url && (
        <p className="text-sm text-slate-700">
          <Trans>Enter this as the app's callback URL in Airtel's portal:</Trans>{" "}
          <code className="break-all">{connection.callback_url}</code>
        </p>
      )}
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <TextField label={t`Client id`} {...field("client_id")} />
        <TextField label={t`Client secret`} type="password" {...field("client_secret")} />
        <TextField
          label={t`Callback key (optional)`}
          hint={t`Only if the app signs its callbacks (callback authentication).`}
          type="password"
          {...field("callback_key")}
        />
        {save.isError && Object.keys(fieldErrors).length === 0 && (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(save.error)}
          </p>
        )}
        <button type="submit" className={primaryButton} disabled={save.isPending}>
          {save.isPending ? <Trans>Saving...</Trans> : <Trans>Save the credentials</Trans>}
        </button>
      </form>
    </section>
  );
}
