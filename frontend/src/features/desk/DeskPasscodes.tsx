import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { outlineButton } from "@/components/buttonStyles";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime } from "@/lib/kenyaTime";
import { type ListedPasscode, useIssuePasscode, usePasscodes, useRevokePasscode } from "./api";

/** An owner issues a volunteer's passcode for an event: shown once (only its hash is kept). */
export function IssuePasscode({ eventId }: { eventId: number }) {
  const { t } = useLingui();
  const issue = useIssuePasscode(eventId);
  const [volunteer, setVolunteer] = useState("");
  const [error, setError] = useState("");
  const onSubmit = async (submitted: FormEvent) => {
    submitted.preventDefault();
    setError("");
    try {
      await issue.mutateAsync(volunteer);
      setVolunteer("");
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <div>
      <form className="flex flex-col gap-3" noValidate onSubmit={(submitted) => void onSubmit(submitted)}>
        <TextField
          label={t`Volunteer's name`}
          maxLength={60}
          value={volunteer}
          error={error}
          onChange={(changed) => setVolunteer(changed.target.value)}
        />
        <button type="submit" className={outlineButton} disabled={issue.isPending}>
          <Trans>Issue a passcode</Trans>
        </button>
      </form>
      {issue.data && (
        <p className="mt-3 text-slate-900" role="status">
          <Trans>
            Passcode for {issue.data.volunteer}:{" "}
            <strong className="font-mono text-lg">{issue.data.passcode}</strong> (shown once; it stops working
            when the event closes)
          </Trans>
        </p>
      )}
    </div>
  );
}

/** The event's passcodes for its owners: who holds each, its entries, and revoking one at once. */
export function PasscodeList({ eventId }: { eventId: number }) {
  const { t, i18n } = useLingui();
  const passcodes = usePasscodes(eventId);
  const revoke = useRevokePasscode(eventId);

  const onRevoke = async (passcode: ListedPasscode) => {
    try {
      await revoke.mutateAsync(passcode.id);
      toast({ title: t`${passcode.volunteer}'s passcode no longer works` });
    } catch (error) {
      toast({ title: t`Error`, description: errorMessage(error), variant: "destructive" });
    }
  };

  if (passcodes.isError) return <p role="alert">{errorMessage(passcodes.error)}</p>;
  if (passcodes.data?.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        <Trans>No passcodes issued for this event.</Trans>
      </p>
    );
  }
  return (
    <ul className="flex flex-col gap-2" aria-label={t`Desk passcodes`}>
      {passcodes.data?.map((passcode) => (
        <li
          key={passcode.id}
          className="flex flex-col gap-2 rounded-md border border-slate-200 px-3 py-2 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="text-sm">
            <p className="font-medium text-slate-900">
              {passcode.volunteer} · <PasscodeState state={passcode.state} />
            </p>
            <p className="text-slate-700">
              <Trans>
                Issued by {passcode.issued_by ?? t`an owner`} on{" "}
                {formatKenyaDateTime(passcode.issued_at, i18n.locale)}
              </Trans>{" "}
              · <Plural value={passcode.entries_count} one="# entry" other="# entries" />
            </p>
          </div>
          {passcode.state === "active" && (
            <button
              type="button"
              className={outlineButton}
              disabled={revoke.isPending}
              aria-label={t`Revoke ${passcode.volunteer}'s passcode`}
              onClick={() => void onRevoke(passcode)}
            >
              <Trans>Revoke</Trans>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function PasscodeState({ state }: { state: ListedPasscode["state"] }) {
  if (state === "active") return <Trans>works</Trans>;
  if (state === "revoked") return <Trans>revoked</Trans>;
  return <Trans>expired at the close</Trans>;
}
