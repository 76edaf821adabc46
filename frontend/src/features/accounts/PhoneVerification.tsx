import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { TextField } from "@/components/TextField";
import { ApiRequestError, errorMessage, type User } from "@/lib/api/client";
import { SESSION_KEY } from "@/lib/session";
import { confirmPhoneCode, PROFILE_KEY, sendPhoneCode } from "./api";

type Props = {
  user: User;
  /** The number to prove (e.g. the one an invitation went to); the account's own when left out. */
  phone?: string;
  onVerified?: (user: User) => void;
};

/** Proves a phone number with a 6-digit code sent to it by SMS: on the profile, and inline where a
 * verified number is needed (accepting an invitation sent by SMS). */
export function PhoneVerification({ user, phone, onVerified }: Props) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const statusId = useId();
  const target = phone ?? user.phone;
  const [sentTo, setSentTo] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  if (user.phone_verified && user.phone === target) {
    return (
      <p className="text-sm font-medium text-brand-800">
        <span aria-hidden="true">✓ </span>
        <Trans>{target} is verified.</Trans>
      </p>
    );
  }

  const send = async () => {
    setBusy(true);
    setError("");
    try {
      const sent = await sendPhoneCode({ phone: target });
      setSentTo(sent.phone);
      setCode("");
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      const verified = await confirmPhoneCode({ code });
      queryClient.setQueryData(PROFILE_KEY, verified);
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      onVerified?.(verified);
    } catch (failure) {
      const fieldError = failure instanceof ApiRequestError ? failure.fieldErrors.code : undefined;
      setError(fieldError ?? errorMessage(failure));
      if (failure instanceof ApiRequestError && failure.code === "code_expired") setSentTo("");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-3">
      <p id={statusId} className="text-sm text-slate-700">
        {sentTo ? (
          <Trans>We sent a 6-digit code to {sentTo}. It is valid for 10 minutes.</Trans>
        ) : (
          <Trans>{target} is not verified yet. We will send a 6-digit code to it by SMS.</Trans>
        )}
      </p>
      {sentTo ? (
        <form noValidate onSubmit={confirm} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <TextField
            label={t`Code from the SMS`}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, ""))}
            error={error || undefined}
            className="sm:w-48"
          />
          <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={busy || code.length !== 6}>
            <Trans>Verify</Trans>
          </button>
          <button type="button" className={outlineButton} onClick={send} disabled={busy}>
            <Trans>Send a new code</Trans>
          </button>
        </form>
      ) : (
        <>
          <button
            type="button"
            className={outlineButton}
            onClick={send}
            disabled={busy || !target}
            aria-describedby={statusId}
          >
            <Trans>Send code</Trans>
          </button>
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
        </>
      )}
    </div>
  );
}
