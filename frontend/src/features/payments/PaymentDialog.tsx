import { Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import * as v from "valibot";
import { useLocation } from "wouter";
import { primaryButton } from "@/components/buttonStyles";
import { DialogCloseButton } from "@/components/DialogCloseButton";
import { TextField } from "@/components/TextField";
import { profileSchema } from "@/features/accounts/rules";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { useSession } from "@/lib/session";
import { useAttemptKey } from "@/lib/useAttemptKey";
import {
  type FeePurpose,
  type Payment,
  type PaymentStatus,
  paymentKeys,
  useStartFeeCheckout,
  useStartFeeStkPush,
} from "./api";
import { FeeSummary } from "./FeeSummary";
import { CheckoutFrame, MpesaWaiting, PaymentOutcome } from "./PaymentSteps";
import { toastStillWaiting, useMpesaWait } from "./useMpesaWait";

type Method = "mpesa" | "card";

type Props = {
  open: boolean;
  onOpenChange(open: boolean): void;
  purpose: FeePurpose;
  campaignId?: number;
  /** The campaign an activation fee activates, named in the fee's summary. */
  campaignTitle?: string;
  title: string;
  description?: string;
  /** Called when the dialog closes, with the payment's last status ("pending" if it never ended). */
  onSettled?(status: PaymentStatus): void;
};

/** Pay a fee by M-Pesa (a PIN prompt on the payer's phone) or by card (the hosted checkout page). */
export default function PaymentDialog({
  open,
  onOpenChange,
  purpose,
  campaignId,
  campaignTitle = "",
  title,
  description,
  onSettled,
}: Props) {
  const lastStatus = useRef<PaymentStatus>("pending");
  useEffect(() => {
    if (open) lastStatus.current = "pending";
  }, [open]);

  function close() {
    onSettled?.(lastStatus.current);
    onOpenChange(false);
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          // Without a description, tell Radix there is none (with one, Radix links it itself).
          {...(description ? {} : { "aria-describedby": undefined })}
          className="fixed inset-x-0 bottom-0 z-50 max-h-[95vh] overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl sm:top-1/2 sm:left-1/2 sm:bottom-auto sm:w-full sm:max-w-lg sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:p-6"
        >
          <Dialog.Title className="pr-10 text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          {description && (
            <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          )}
          {/* The flow's state lives inside the content, so every opening starts afresh. */}
          <PaymentFlow
            purpose={purpose}
            campaignId={campaignId}
            campaignTitle={campaignTitle}
            onStatus={(status) => {
              lastStatus.current = status;
            }}
            onClose={close}
          />
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

type Attempt = { reference: string; method: Method; checkoutUrl?: string; started?: Payment };

function PaymentFlow({
  purpose,
  campaignId,
  campaignTitle,
  onStatus,
  onClose,
}: {
  purpose: FeePurpose;
  campaignId?: number;
  campaignTitle: string;
  onStatus(status: PaymentStatus): void;
  onClose(): void;
}) {
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<Method>("mpesa");
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const wait = useMpesaWait(attempt?.reference ?? null, attempt?.started);
  const payment = wait.payment;
  const current = payment?.status ?? "pending";

  // The latest callbacks for the effects below, which must not run again when they change.
  const latest = useRef({ onStatus, onClose });
  latest.current = { onStatus, onClose };
  useEffect(() => {
    latest.current.onStatus(current);
  }, [current]);

  useEffect(() => {
    if (current !== "succeeded") return;
    // The fee changed what the server says elsewhere (the campaign is active, the user subscribed):
    // every view but this payment's polling and the session is out of date.
    void queryClient.invalidateQueries({
      predicate: (query) => !["payments", "session"].includes(String(query.queryKey[0])),
    });
    if (purpose === "subscription") void queryClient.invalidateQueries({ queryKey: paymentKeys.hasPaid });
  }, [current, purpose, queryClient]);

  // The M-Pesa prompt waits 30 s at most here; the server keeps following the payment after that.
  const mpesaGaveUp = attempt?.method === "mpesa" && wait.gaveUp;
  useEffect(() => {
    if (!mpesaGaveUp) return;
    toastStillWaiting();
    latest.current.onClose();
  }, [mpesaGaveUp]);

  if (attempt && current !== "pending") {
    return <PaymentOutcome payment={payment} onDone={onClose} onRetry={() => setAttempt(null)} />;
  }
  if (attempt?.method === "card" && attempt.checkoutUrl) {
    return (
      <CheckoutFrame
        url={attempt.checkoutUrl}
        onLoad={() => void wait.refetch()}
        onBack={() => setAttempt(null)}
      />
    );
  }
  if (attempt && payment) return <MpesaWaiting payment={payment} />;

  return (
    <div className="mt-4">
      <FeeSummary purpose={purpose} campaignTitle={campaignTitle} />
      <MethodChoice method={method} onChange={setMethod} />
      {method === "mpesa" ? (
        <MpesaForm
          purpose={purpose}
          campaignId={campaignId}
          onStarted={(started) => setAttempt({ reference: started.reference, method: "mpesa", started })}
        />
      ) : (
        <CardStart
          purpose={purpose}
          campaignId={campaignId}
          onStarted={(reference, checkoutUrl) => setAttempt({ reference, method: "card", checkoutUrl })}
        />
      )}
    </div>
  );
}

function MethodChoice({ method, onChange }: { method: Method; onChange(method: Method): void }) {
  const { t } = useLingui();
  const options: [Method, string][] = [
    ["mpesa", t`M-Pesa`],
    ["card", t`Card`],
  ];
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-800">
        <Trans>Pay with</Trans>
      </legend>
      <div className="grid grid-cols-2 gap-2">
        {options.map(([value, label]) => (
          <label
            key={value}
            className="flex cursor-pointer items-center justify-center rounded-md border border-slate-300 px-3 py-2.5 font-medium text-slate-700 has-checked:border-brand-700 has-checked:bg-brand-50 has-checked:text-brand-800 has-focus-visible:outline-3 has-focus-visible:outline-accent-500"
          >
            <input
              type="radio"
              name="payment-method"
              value={value}
              checked={method === value}
              onChange={() => onChange(value)}
              className="sr-only"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const phoneSchema = v.object({ phone: profileSchema.entries.phone });

function MpesaForm({
  purpose,
  campaignId,
  onStarted,
}: {
  purpose: FeePurpose;
  campaignId?: number;
  onStarted(payment: Payment): void;
}) {
  const { t } = useLingui();
  const phone = useSession().data?.user?.phone ?? "";
  const form = useSchemaForm(phoneSchema, { phone });
  const attemptKey = useAttemptKey();
  const start = useStartFeeStkPush({ purpose, campaignId });
  const send = (phone: string) =>
    start.mutate(
      { phone, key: attemptKey.take() },
      {
        onSuccess: (payment) => {
          attemptKey.settle();
          onStarted(payment);
        },
        onError: (error) => {
          attemptKey.settle(error);
          showFieldErrors(error, form, ["phone"]);
        },
      },
    );
  const failure =
    start.error && !(start.error instanceof ApiRequestError && start.error.fieldErrors.phone)
      ? errorMessage(start.error)
      : null;

  return (
    <form noValidate className="mt-4 space-y-4" onSubmit={form.handleSubmit((values) => send(values.phone))}>
      <TextField
        label={t`M-Pesa phone number`}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        hint={<Trans>You will get a prompt on this phone to enter your M-Pesa PIN.</Trans>}
        error={form.formState.errors.phone?.message}
        {...form.register("phone")}
      />
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {failure}
        </p>
      )}
      <button type="submit" disabled={start.isPending} className={primaryButton}>
        {start.isPending ? <Trans>Sending...</Trans> : <Trans>Send payment request</Trans>}
      </button>
    </form>
  );
}

function CardStart({
  purpose,
  campaignId,
  onStarted,
}: {
  purpose: FeePurpose;
  campaignId?: number;
  onStarted(reference: string, checkoutUrl: string): void;
}) {
  const [location] = useLocation();
  const attemptKey = useAttemptKey();
  const start = useStartFeeCheckout({ purpose, campaignId });
  const open = () =>
    start.mutate(
      { key: attemptKey.take(), returnPath: location },
      {
        onSuccess: (checkout) => {
          attemptKey.settle();
          onStarted(checkout.reference, checkout.checkout_url);
        },
        onError: (error) => attemptKey.settle(error),
      },
    );

  return (
    <div className="mt-4 space-y-4">
      <p className="text-sm text-slate-600">
        <Trans>Pay by debit or credit card on our payment partner's secure page, shown here.</Trans>
      </p>
      {start.error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {errorMessage(start.error)}
        </p>
      )}
      <button type="button" disabled={start.isPending} onClick={open} className={primaryButton}>
        {start.isPending ? <Trans>Opening...</Trans> : <Trans>Continue to card payment</Trans>}
      </button>
    </div>
  );
}
