import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { useWaitingToast } from "@/features/organizations/Approvals";
import { isWaiting } from "@/features/organizations/api";
import {
  type OrganizationAccount as Account,
  type MpesaConnection,
  type MpesaCredentials,
  useConnectMpesa,
  useMpesaConnection,
  usePullMpesa,
  useSaveMpesaCredentials,
  useSetMpesaRatiba,
  useTestMpesa,
} from "@/features/payments/api";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime } from "@/lib/kenyaTime";
import { AccountPage } from "./AccountPage";

const EMPTY: MpesaCredentials = { consumer_key: "", consumer_secret: "", passkey: "", nominated_number: "" };

/**
 * /orgs/{id}/collection-accounts/{account}/mpesa, for the organization's owners and treasurers (the
 * server answers 403 or 404 to anyone else): the Daraja credentials of a paybill or till (write-only),
 * Test, Connect or Re-register, and Pull now.
 */
export default function MpesaConnectionPage() {
  return (
    <AccountPage pending={(request) => request.kind.startsWith("mpesa.")}>
      {(account) => <MpesaConnectionLoader account={account} />}
    </AccountPage>
  );
}

export function MpesaConnectionLoader({ account }: { account: Account }) {
  const { t } = useLingui();
  const connection = useMpesaConnection(account);
  if (connection.data) return <MpesaConnectionView account={account} connection={connection.data} />;
  if (connection.isError) {
    return (
      <PageLoadError
        message={errorMessage(connection.error, t`Failed to load the M-Pesa connection.`)}
        retry={() => void connection.refetch()}
      />
    );
  }
  return <LoadingPlaceholder className="h-96" />;
}

function MpesaConnectionView({ account, connection }: { account: Account; connection: MpesaConnection }) {
  const { t, i18n } = useLingui();
  const when = (iso: string | null) => (iso ? formatKenyaDateTime(iso, i18n.locale) : t`Not yet`);
  return (
    <section aria-labelledby="mpesa-heading" className="space-y-6">
      <div>
        <h1 id="mpesa-heading" className="text-2xl font-bold text-slate-900">
          <Trans>Connect M-Pesa: {connection.shortcode}</Trans>
        </h1>
        <p className="mt-2 text-slate-700">
          <Trans>
            With your own Daraja app, payments to this number show here the moment they land, pledgers get
            "Pay now with M-Pesa" prompts into it, and missed confirmations are recovered every ten minutes.
          </Trans>
        </p>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 rounded-md border border-slate-200 p-4 text-sm sm:grid-cols-2">
        <dt className="font-medium text-slate-800">
          <Trans>Connected</Trans>
        </dt>
        <dd>{when(connection.connected_at)}</dd>
        <dt className="font-medium text-slate-800">
          <Trans>Last test</Trans>
        </dt>
        <dd>{when(connection.last_tested_at)}</dd>
        <dt className="font-medium text-slate-800">
          <Trans>Last pull</Trans>
        </dt>
        <dd>{when(connection.last_pulled_at)}</dd>
        {connection.confirmation_url && (
          <>
            <dt className="font-medium text-slate-800">
              <Trans>Confirmation URL</Trans>
            </dt>
            <dd className="break-all">{connection.confirmation_url}</dd>
            <dt className="font-medium text-slate-800">
              <Trans>Validation URL</Trans>
            </dt>
            <dd className="break-all">{connection.validation_url}</dd>
          </>
        )}
      </dl>
      <CredentialsForm account={account} connection={connection} />
      <ConnectionActions account={account} connection={connection} />
      {connection.c2b_registered_at && <RatibaSetting account={account} connection={connection} />}
    </section>
  );
}

function CredentialsForm({ account, connection }: { account: Account; connection: MpesaConnection }) {
  const { t } = useLingui();
  const save = useSaveMpesaCredentials(account);
  const waiting = useWaitingToast();
  const [values, setValues] = useState<MpesaCredentials>(EMPTY);
  const errors = save.error instanceof ApiRequestError ? save.error.fieldErrors : {};
  const stored = t`Saved. Leave blank to keep it.`;
  const field = (name: keyof MpesaCredentials) => ({
    name,
    value: values[name],
    error: errors[name],
    autoComplete: "off",
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(values, {
      onSuccess: (answer) => {
        setValues(EMPTY);
        if (isWaiting(answer)) waiting();
        else toast({ title: t`Credentials saved.` });
      },
    });
  };
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Daraja credentials</Trans>
      </h2>
      <p className="text-sm text-slate-600">
        <Trans>They are stored encrypted and can never be shown again, only replaced.</Trans>
      </p>
      <TextField
        label={t`Consumer key`}
        hint={connection.has_consumer_key ? stored : undefined}
        {...field("consumer_key")}
      />
      <TextField
        label={t`Consumer secret`}
        type="password"
        hint={connection.has_consumer_secret ? stored : undefined}
        {...field("consumer_secret")}
      />
      <TextField
        label={t`Lipa Na M-Pesa passkey`}
        type="password"
        hint={connection.has_passkey ? stored : undefined}
        {...field("passkey")}
      />
      <TextField
        label={t`Nominated Safaricom number (for Pull Transactions)`}
        type="tel"
        inputMode="tel"
        placeholder={connection.nominated_number || "0722000111"}
        {...field("nominated_number")}
      />
      {save.isError && !Object.keys(errors).length && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(save.error)}
        </p>
      )}
      <button type="submit" className={primaryButton} disabled={save.isPending}>
        {save.isPending ? <Trans>Saving...</Trans> : <Trans>Save credentials</Trans>}
      </button>
    </form>
  );
}

function ConnectionActions({ account, connection }: { account: Account; connection: MpesaConnection }) {
  const { t } = useLingui();
  const test = useTestMpesa(account);
  const connect = useConnectMpesa(account);
  const pull = usePullMpesa(account);
  const waiting = useWaitingToast();
  // The last action's failure stays on the page: each says which credential M-Pesa refused.
  const failure = [test, connect, pull].find((action) => action.isError)?.error;
  const ready = connection.has_consumer_key && connection.has_consumer_secret;
  const registered = connection.c2b_registered_at !== null;
  const busy = test.isPending || connect.isPending || pull.isPending;
  return (
    <div className="space-y-3">
      {failure && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(failure)}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className={outlineButton}
          disabled={!ready || busy}
          onClick={() =>
            test.mutate(undefined, {
              onSuccess: () => toast({ title: t`M-Pesa accepted the credentials.` }),
            })
          }
        >
          <Trans>Test</Trans>
        </button>
        <button
          type="button"
          className={primaryButton}
          disabled={!ready || busy}
          onClick={() =>
            connect.mutate(registered, {
              onSuccess: (answer) =>
                isWaiting(answer)
                  ? waiting()
                  : toast({ title: t`Connected: M-Pesa sends this account's payments to Harambee.` }),
            })
          }
        >
          {registered ? <Trans>Re-register</Trans> : <Trans>Connect</Trans>}
        </button>
        {connection.pull_registered_at && (
          <button
            type="button"
            className={outlineButton}
            disabled={busy}
            onClick={() =>
              pull.mutate(undefined, {
                onSuccess: ({ pulled, credited }) =>
                  toast({
                    title: t`M-Pesa listed ${pulled} payments; ${credited} were missing and are now credited.`,
                  }),
              })
            }
          >
            <Trans>Pull now</Trans>
          </button>
        )}
      </div>
    </div>
  );
}

/** The account's M-Pesa Ratiba setting: Safaricom enables standing orders per paybill, after an agreement. */
function RatibaSetting({ account, connection }: { account: Account; connection: MpesaConnection }) {
  const { t } = useLingui();
  const ratiba = useSetMpesaRatiba(account);
  const waiting = useWaitingToast();
  return (
    <fieldset className="space-y-2 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-lg font-semibold text-slate-900">
        <Trans>M-Pesa Ratiba (standing orders)</Trans>
      </legend>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4"
          checked={connection.ratiba_enabled}
          disabled={ratiba.isPending}
          aria-describedby="ratiba-hint"
          onChange={(event) =>
            ratiba.mutate(event.target.checked, {
              onSuccess: (answer) =>
                isWaiting(answer)
                  ? waiting()
                  : toast({
                      title: answer.ratiba_enabled
                        ? t`Pledgers with equal instalments can now pay automatically.`
                        : t`Pledgers are no longer offered to pay automatically.`,
                    }),
            })
          }
        />
        <span>
          <Trans>Safaricom has enabled M-Pesa Ratiba for this paybill</Trans>
        </span>
      </label>
      <p id="ratiba-hint" className="text-sm text-slate-600">
        <Trans>
          Ratiba is a commercial service Safaricom turns on for a paybill after an agreement. Once it is on,
          pledgers with an equal-instalment plan can approve a standing order once with their M-Pesa PIN, and
          each instalment is then paid on its date with their pledge code.
        </Trans>
      </p>
      {ratiba.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(ratiba.error)}
        </p>
      )}
    </fieldset>
  );
}
