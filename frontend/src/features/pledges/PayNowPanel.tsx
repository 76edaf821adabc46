import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import * as v from "valibot";
import { primaryButton } from "@/components/buttonStyles";
import { TextField } from "@/components/TextField";
import { campaignKeys } from "@/features/campaigns/api";
import type { Payment } from "@/features/payments/api";
import { paymentView } from "@/features/payments/outcome";
import { PaymentOutcome } from "@/features/payments/PaymentSteps";
import { useMpesaWait } from "@/features/payments/useMpesaWait";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { serverFieldErrors, showFieldErrors, useSchemaForm } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { useAttemptKey } from "@/lib/useAttemptKey";
import {
  type PledgeReceipt,
  pledgeKeys,
  usePayNowFormPage,
  useStartPledgeAirtelPush,
  useStartPledgeStkPush,
} from "./api";
import { parseWholeKes, pledgeSchema, say } from "./rules";

/**
 * What 'Pay now' takes: any whole amount up to what is left (the server's rule and message), and,
 * when the pledger chose another number, that number.
 */
type PayNowValues = { amount: string; phone: string };

function payNowSchema(remaining: number, otherPhone: boolean) {
  const most = formatKsh(remaining);
  const upToRemaining = say(msg`Please enter an amount from Ksh 1 to ${most}.`);
  return v.object({
    amount: v.pipe(
      v.string(),
      v.check((text) => {
        const amount = parseWholeKes(text);
        return amount !== null && amount <= remaining;
      }, upToRemaining),
    ),
    phone: otherPhone ? pledgeSchema.entries.phone : v.string(),
  });
}

/**
 * 'Pay now with M-Pesa' while something remains to pay: a PIN prompt for the amount the server says
 * is due (on a plan, the instalment due or what is overdue; else all that is left) or any other
 * amount up to what is left, followed here until M-Pesa answers. Without JavaScript it is a plain HTML
 * form the server answers with this page again: the prompt sent, or what was typed and why it was
 * refused (backend/config/pledge_form.py).
 */
export function PayNowPanel({ receipt, heading: Heading }: { receipt: PledgeReceipt; heading: "h2" | "h3" }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [started, setStarted] = useState<Payment | null>(null);
  const [otherPhone, setOtherPhone] = useState(false);
  const wait = useMpesaWait(started?.reference ?? null, started);
  const payment = wait.payment;
  const attemptKey = useAttemptKey();
  const schema = useMemo(
    () => payNowSchema(receipt.remaining_amount, otherPhone),
    [receipt.remaining_amount, otherPhone],
  );
  const page = usePayNowFormPage(receipt.code);
  const [initial] = useState(() => ({
    amount: page?.amount ?? String(receipt.amount_due),
    errors: page?.error
      ? serverFieldErrors<PayNowValues>(page.error.field_errors, ["amount", "phone"])
      : undefined,
  }));
  const form = useSchemaForm(schema, { amount: initial.amount, phone: "" }, initial.errors);
  // After a payment the receipt says what is due next: the form offers that (what was typed stays until then).
  const { setValue } = form;
  const offeredDue = useRef(receipt.amount_due);
  useEffect(() => {
    if (offeredDue.current === receipt.amount_due) return;
    offeredDue.current = receipt.amount_due;
    setValue("amount", String(receipt.amount_due));
  }, [receipt.amount_due, setValue]);
  // The server's answer to the form sent without JavaScript, until it is sent again.
  const [posted, setPosted] = useState(page?.error || page?.sent ? page : undefined);

  // M-Pesa or Airtel Money: both where the campaign takes both, the pledge's number choosing the default
  // (an Airtel prefix: receipt.airtel_default).
  const bothChannels = receipt.stk_push_available && receipt.airtel_push_available;
  const [channel, setChannel] = useState<"mpesa" | "airtel">(() =>
    receipt.airtel_push_available && (receipt.airtel_default || !receipt.stk_push_available)
      ? "airtel"
      : "mpesa",
  );
  const airtel = channel === "airtel";
  const startMpesa = useStartPledgeStkPush(receipt.code);
  const startAirtel = useStartPledgeAirtelPush(receipt.code);
  const start = airtel ? startAirtel : startMpesa;
  const send = ({ amount, phone }: PayNowValues) => {
    setPosted(undefined);
    start.mutate(
      { phone: otherPhone ? phone : "", amount: parseWholeKes(amount) ?? 0, key: attemptKey.take() },
      {
        onSuccess: (payment) => {
          attemptKey.settle();
          setStarted(payment);
        },
        onError: (error) => {
          attemptKey.settle(error);
          showFieldErrors(error, form, ["phone", "amount"]);
        },
      },
    );
  };

  const succeeded = payment?.status === "succeeded";
  useEffect(() => {
    if (!succeeded) return;
    void queryClient.invalidateQueries({ queryKey: pledgeKeys.receipt(receipt.code) });
    void queryClient.invalidateQueries({ queryKey: campaignKeys.detail(receipt.campaign_id) });
  }, [succeeded, queryClient, receipt.code, receipt.campaign_id]);

  const reset = () => {
    setStarted(null);
    start.reset();
  };
  // Once fully paid there is nothing left to pay, but a payment under way still shows how it ends.
  if (!receipt.stk_push_available && !receipt.airtel_push_available && !started) return null;

  let body: ReactNode;
  if (payment && payment.status !== "pending") {
    body = <PaymentOutcome payment={payment} onDone={reset} onRetry={reset} />;
  } else if (payment && wait.gaveUp) {
    // The polling stopped after 30 s: the pledger is told the payment is still followed.
    body = (
      <div role="status" className="text-center">
        <p className="font-semibold text-slate-900">
          <Trans>We are still waiting for M-Pesa</Trans>
        </p>
        <p className="mt-1 text-sm text-slate-700">
          <Trans>Your payment keeps being tracked and counts as soon as M-Pesa confirms it.</Trans>
        </p>
        <button
          type="button"
          onClick={() => void wait.refetch()}
          className="mt-3 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
        >
          <Trans>Check again</Trans>
        </button>
      </div>
    );
  } else if (payment) {
    const view = paymentView(payment);
    body = (
      <div role="status" className="text-center">
        <div className="mx-auto h-8 w-8 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700" />
        <p className="mt-3 font-semibold text-slate-900">{view.message}</p>
        {view.detail && <p className="mt-1 text-sm text-slate-700">{view.detail}</p>}
      </div>
    );
  } else {
    const remaining = formatKsh(receipt.remaining_amount);
    const due = formatKsh(receipt.amount_due);
    const phoneHint = receipt.phone_hint;
    body = (
      <form
        method="post"
        action={`/pledges/${receipt.code}`}
        noValidate
        className="space-y-3"
        onSubmit={form.handleSubmit(send)}
      >
        {page && <input type="hidden" name="csrfmiddlewaretoken" value={page.csrf_token} />}
        {page && <input type="hidden" name="key" value={page.key} />}
        {posted?.sent && (
          <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900">
            <Trans>
              A prompt for your M-Pesa PIN is on its way to your phone. Enter your PIN there, then reload this
              page to see your payment.
            </Trans>
          </p>
        )}
        {bothChannels && (
          <fieldset className="flex flex-wrap gap-4">
            <legend className="mb-1 text-sm font-medium text-slate-900">
              <Trans>Pay with</Trans>
            </legend>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="channel"
                value="mpesa"
                checked={!airtel}
                onChange={() => setChannel("mpesa")}
              />
              M-Pesa
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="channel"
                value="airtel"
                checked={airtel}
                onChange={() => setChannel("airtel")}
              />
              Airtel Money
            </label>
          </fieldset>
        )}
        {posted?.error && Object.keys(posted.error.field_errors).length === 0 && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {posted.error.detail}
          </p>
        )}
        <p className="text-sm text-slate-700">
          {receipt.amount_due < receipt.remaining_amount ? (
            <Trans>
              Due now: {due}. You may pay another amount, up to the {remaining} left.
            </Trans>
          ) : (
            <Trans>You may pay all of the {remaining} left or part of it.</Trans>
          )}{" "}
          {airtel ? (
            otherPhone ? (
              <Trans>A prompt for your Airtel Money PIN comes to the number below.</Trans>
            ) : (
              <Trans>A prompt for your Airtel Money PIN comes to {phoneHint}.</Trans>
            )
          ) : otherPhone ? (
            <Trans>A prompt for your M-Pesa PIN comes to the number below.</Trans>
          ) : (
            <Trans>A prompt for your M-Pesa PIN comes to {phoneHint}.</Trans>
          )}
        </p>
        <TextField
          label={t`Amount to pay (Ksh)`}
          inputMode="numeric"
          autoComplete="off"
          defaultValue={initial.amount}
          error={form.formState.errors.amount?.message}
          {...form.register("amount")}
        />
        {otherPhone && (
          <TextField
            label={airtel ? t`Airtel Money phone number` : t`M-Pesa phone number`}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            error={form.formState.errors.phone?.message}
            {...form.register("phone")}
          />
        )}
        {start.error && !(start.error instanceof ApiRequestError && start.error.fieldErrors.phone) && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {errorMessage(start.error)}
          </p>
        )}
        <button type="submit" disabled={start.isPending} className={primaryButton}>
          {start.isPending ? (
            <Trans>Sending...</Trans>
          ) : airtel ? (
            <Trans>Pay now with Airtel Money</Trans>
          ) : (
            <Trans>Pay now with M-Pesa</Trans>
          )}
        </button>
        <button
          type="button"
          onClick={() => setOtherPhone((other) => !other)}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          {otherPhone ? (
            <Trans>Use my pledge's phone number</Trans>
          ) : (
            <Trans>Use a different phone number</Trans>
          )}
        </button>
      </form>
    );
  }

  return (
    <section aria-labelledby="pay-now-heading" className="rounded-xl border border-slate-200 bg-slate-50 p-4">
      <Heading id="pay-now-heading" className="mb-2 font-semibold text-slate-900">
        {receipt.airtel_push_available && !receipt.stk_push_available ? (
          <Trans>Pay with Airtel Money now</Trans>
        ) : receipt.airtel_push_available ? (
          <Trans>Pay with M-Pesa or Airtel Money now</Trans>
        ) : (
          <Trans>Pay with M-Pesa now</Trans>
        )}
      </Heading>
      {body}
    </section>
  );
}
