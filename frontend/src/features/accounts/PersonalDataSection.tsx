import { Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import { dangerButton, secondaryButton } from "@/components/buttonStyles";
import { PasswordField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { useSetSession } from "@/lib/session";
import { deleteAccount } from "./api";

/** The profile's 'Your data' section: download everything held about you, or delete the account. */
export function PersonalDataSection() {
  return (
    <section
      aria-labelledby="your-data-heading"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="your-data-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Your data</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>
          Download a copy of everything we hold about you, or delete your account. Read our{" "}
          <Link href="/privacy" className="text-brand-700 underline">
            privacy notice
          </Link>
          .
        </Trans>
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        {/* A plain link: the server answers with a file to save (Content-Disposition: attachment). */}
        <a href="/api/profile/export" download className={`${secondaryButton} sm:w-auto`}>
          <Trans>Download my data</Trans>
        </a>
        <DeleteAccountDialog />
      </div>
    </section>
  );
}

function DeleteAccountDialog() {
  return (
    <Dialog.Root>
      <Dialog.Trigger className={`${dangerButton} sm:w-auto`}>
        <Trans>Delete my account</Trans>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content className="fixed inset-x-4 top-1/2 z-50 mx-auto max-h-[90vh] max-w-md -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-5 shadow-xl sm:p-6">
          <Dialog.Title className="text-xl font-semibold text-slate-900">
            <Trans>Delete your account?</Trans>
          </Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-700">
              <p>
                <Trans>
                  This cannot be undone. Your campaigns will be closed and you will be signed out.
                </Trans>
              </p>
              <p>
                <Trans>
                  The pledges and donations you made while signed in stay in the organizers' records with
                  their amounts, but without your name, phone number or e-mail address.
                </Trans>
              </p>
            </div>
          </Dialog.Description>
          {/* Rendered only while open, so the password starts empty each time. */}
          <DeleteAccountForm />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function DeleteAccountForm() {
  const { t } = useLingui();
  const setSession = useSetSession();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setDeleting(true);
    try {
      const session = await deleteAccount({ password });
      sessionStorage.clear();
      setSession(session);
      toast({ title: t`Your account has been deleted.` });
      navigate("/");
    } catch (error) {
      // e.g. 'The password is incorrect. Your account was not deleted.'
      setFailure(errorMessage(error));
      setDeleting(false);
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} className="mt-5 space-y-4">
      {failure && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {failure}
        </p>
      )}
      <PasswordField
        label={t`Your password`}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        hint={<Trans>Enter your password to confirm.</Trans>}
      />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Dialog.Close className="rounded-md border border-slate-300 px-4 py-2.5 font-medium text-slate-700 hover:bg-slate-50">
          <Trans>Cancel</Trans>
        </Dialog.Close>
        <button
          type="submit"
          className="rounded-md bg-red-700 px-4 py-2.5 font-medium text-white hover:bg-red-800 disabled:opacity-60"
          disabled={deleting || !password}
        >
          {deleting ? <Trans>Deleting...</Trans> : <Trans>Delete my account</Trans>}
        </button>
      </div>
    </form>
  );
}
