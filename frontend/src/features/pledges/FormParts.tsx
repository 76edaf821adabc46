import type { ReactNode } from "react";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { ApiRequestError, errorMessage } from "@/lib/api/client";

// The foot of Pledge Management's dialog forms: an error no field shows, then close and submit.

/** A form's error that belongs to none of its fields (those show their own), if any. */
export function FormFailure({
  error,
  fields,
  fallback,
}: {
  error: Error | null;
  fields: readonly string[];
  /** Said when the request never got an answer (by default: an unexpected error). */
  fallback?: string;
}) {
  if (!error || (error instanceof ApiRequestError && fields.some((field) => error.fieldErrors[field])))
    return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
      {errorMessage(error, fallback)}
    </p>
  );
}

/** Close on the left (below on phones), the submit button on the right, disabled while busy. */
export function FormButtons({
  busy,
  submitLabel,
  closeLabel,
  onClose,
}: {
  busy: boolean;
  submitLabel: ReactNode;
  closeLabel: ReactNode;
  onClose(): void;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <button type="button" onClick={onClose} className={outlineButton}>
        {closeLabel}
      </button>
      <button type="submit" disabled={busy} className={`${primaryButton} sm:w-auto`}>
        {submitLabel}
      </button>
    </div>
  );
}
