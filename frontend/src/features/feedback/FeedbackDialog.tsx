import { valibotResolver } from "@hookform/resolvers/valibot";
import { Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation } from "@tanstack/react-query";
import { type RefObject, useId, useMemo } from "react";
import { useForm } from "react-hook-form";
import * as v from "valibot";
import { useLocation } from "wouter";
import { DialogCloseButton } from "@/components/DialogCloseButton";
import { toast } from "@/components/toast";
import { ApiRequestError } from "@/lib/api/client";
import { useSession } from "@/lib/session";
import { sendFeedback } from "./api";

// The same limits as backend/feedback/services.py.
const MESSAGE_MIN_LENGTH = 5;
const MESSAGE_MAX_LENGTH = 5000;
const CONTACT_MAX_LENGTH = 200;

type FeedbackValues = { message: string; contact: string };
const EMPTY: FeedbackValues = { message: "", contact: "" };

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button outside this chunk that opened the dialog; focus goes back to it on close. */
  returnFocusTo: RefObject<HTMLElement | null>;
};

/** The feedback form in a dialog: a message (at least 5 characters) and an optional contact. */
export default function FeedbackDialog({ open, onOpenChange, returnFocusTo }: Props) {
  const { t } = useLingui();
  const [page] = useLocation();
  // The POST needs the CSRF token that comes with the session.
  const session = useSession();
  const messageId = useId();
  const contactId = useId();

  const schema = useMemo(
    () =>
      v.object({
        message: v.pipe(
          v.string(),
          v.trim(),
          v.minLength(MESSAGE_MIN_LENGTH, t`Please enter a message of at least 5 characters.`),
          v.maxLength(MESSAGE_MAX_LENGTH, t`Please keep your message under 5,000 characters.`),
        ),
        contact: v.pipe(v.string(), v.trim()),
      }),
    [t],
  );
  // The form lives outside Dialog.Content so a draft survives closing the dialog by accident.
  const form = useForm<FeedbackValues>({
    resolver: valibotResolver(schema),
    mode: "onTouched",
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const submit = useMutation({
    mutationFn: async (values: FeedbackValues) => {
      if (!session.data) await session.refetch();
      return await sendFeedback({ ...values, page }, t`Failed to submit feedback.`);
    },
    onSuccess: () => {
      toast({ title: t`Thank you for your feedback!` });
      form.reset(EMPTY);
      close();
    },
    onError: (error) => {
      if (!(error instanceof ApiRequestError)) return;
      for (const field of ["message", "contact"] as const) {
        const message = error.fieldErrors[field];
        if (message) form.setError(field, { message });
      }
    },
  });
  // A field error is shown under its field; any other failure above the buttons.
  const formError =
    submit.error && !(submit.error instanceof ApiRequestError && Object.keys(submit.error.fieldErrors).length)
      ? submit.error instanceof ApiRequestError
        ? submit.error.message
        : t`Failed to submit feedback.`
      : null;

  function close() {
    submit.reset();
    onOpenChange(false);
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          // Straight into the message rather than onto the close button.
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            form.setFocus("message");
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="fixed inset-x-0 bottom-0 z-50 max-h-[90vh] overflow-y-auto rounded-t-2xl bg-white p-6 shadow-xl sm:inset-x-auto sm:right-4 sm:bottom-20 sm:w-full sm:max-w-md sm:rounded-2xl"
        >
          <Dialog.Title className="pr-8 text-lg font-semibold text-slate-900">
            <Trans>Send us your feedback</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            <Trans>
              Tell us what works, what does not, or what you would like to see. We read every message.
            </Trans>
          </Dialog.Description>
          <DialogCloseButton />

          <form
            noValidate
            className="mt-4 space-y-4"
            onSubmit={form.handleSubmit((values) => submit.mutate(values))}
          >
            <div>
              <label htmlFor={messageId} className="block text-sm font-medium text-slate-800">
                <Trans>Message</Trans>
              </label>
              <textarea
                id={messageId}
                rows={4}
                required
                aria-invalid={errors.message ? true : undefined}
                aria-describedby={errors.message ? `${messageId}-error` : undefined}
                className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-brand-600 aria-invalid:border-red-600"
                {...form.register("message")}
              />
              {errors.message && (
                <p id={`${messageId}-error`} className="mt-1 text-sm text-red-700">
                  {errors.message.message}
                </p>
              )}
            </div>
            <div>
              <label htmlFor={contactId} className="block text-sm font-medium text-slate-800">
                <Trans>Email or phone (optional)</Trans>
              </label>
              <input
                id={contactId}
                type="text"
                autoComplete="email"
                maxLength={CONTACT_MAX_LENGTH}
                aria-invalid={errors.contact ? true : undefined}
                aria-describedby={errors.contact ? `${contactId}-error` : undefined}
                className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-brand-600 aria-invalid:border-red-600"
                {...form.register("contact")}
              />
              {errors.contact && (
                <p id={`${contactId}-error`} className="mt-1 text-sm text-red-700">
                  {errors.contact.message}
                </p>
              )}
            </div>
            {formError && (
              <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
                {formError}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <Dialog.Close className="rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:bg-slate-50">
                <Trans>Cancel</Trans>
              </Dialog.Close>
              <button
                type="submit"
                disabled={submit.isPending}
                className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800 disabled:opacity-60"
              >
                {submit.isPending ? <Trans>Sending...</Trans> : <Trans>Send Feedback</Trans>}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
