import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import * as v from "valibot";
import { primaryButton } from "@/components/buttonStyles";
import { PaymentInstructionCard } from "@/components/PaymentInstructionCard";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { campaignKeys } from "@/features/campaigns/api";
import { formatCalendarDate } from "@/features/campaigns/links";
import type { Payment } from "@/features/payments/api";
import { paymentView } from "@/features/payments/outcome";
import { PaymentOutcome } from "@/features/payments/PaymentSteps";
import { useMpesaWait } from "@/features/payments/useMpesaWait";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { useAttemptKey } from "@/lib/useAttemptKey";
import { type PledgeReceipt, pledgeKeys, usePledgeReceipt, useStartPledgeStkPush } from "./api";
import { PlanPanel } from "./PlanPanel";
import { PledgeStatusBadge } from "./PledgeStatusBadge";
import { howToPayText, pledgeSchema } from "./rules";
import { useCopied } from "./useCopied";

const COPIED_MS = 1500;

type SectionHeading = "h2" | "h3";

/**
 * After pledging, or back from a reminder's link (`returning`): the pledge code (the M-Pesa account
 * number), what is paid, and exactly how to pay. `sectionHeading`: its sections' headings, one level
 * below the heading it is shown under (a dialog's title, h2; a page's, h1).
 */
export function PledgeReceiptView({
  initial,
  returning = false,
  sectionHeading: Section = "h3",
}: {
  initial: PledgeReceipt;
  returning?: boolean;
  sectionHeading?: SectionHeading;
}) {
  const { t, i18n } = useLingui();
  const receipt = usePledgeReceipt(initial);
  const pledge = receipt.data;
  const code = useCopied(COPIED_MS);
  const details = useCopied(COPIED_MS);
  const deadline = formatCalendarDate(pledge.deadline_date, i18n.locale);

  const copy = async (copier: ReturnType<typeof useCopied>, text: string) => {
    if (!(await copier.copy(text)))
      toast({ title: t`Could not copy. Please write it down.`, description: text });
  };

  return (
    <div className="space-y-5">
      {!returning && (
        <p role="status" className="rounded-md bg-green-50 p-3 text-sm font-medium text-green-900">
          <Trans>Thank you! Your pledge has been recorded successfully.</Trans>
        </p>
      )}

      <div className="rounded-xl border-2 border-dashed border-brand-600 bg-brand-50 p-4 text-center">
        <p className="text-sm font-medium text-slate-700">
          <Trans>Your pledge code</Trans>
        </p>
        <p
          className="mt-1 font-mono text-4xl font-bold tracking-[0.2em] text-slate-900"
          data-testid="pledge-code"
        >
          {pledge.code}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          <Trans>Use it as the account number when you pay by M-Pesa Paybill.</Trans>
        </p>
        <button
          type="button"
          onClick={() => void copy(code, pledge.code)}
          className="mt-3 rounded-full border border-brand-700 bg-white px-4 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-100"
        >
          {code.copied ? <Trans>Copied!</Trans> : <Trans>Copy code</Trans>}
        </button>
        <span className="sr-only" aria-live="polite">
          {code.copied ? t`Copied!` : ""}
        </span>
      </div>

      <div>
        <div className="flex items-center justify-between gap-2">
          <Section className="font-semibold text-slate-900">
            <Trans>Your pledge</Trans>
          </Section>
          <PledgeStatusBadge status={pledge.status} />
        </div>
        <dl className="mt-2 grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="text-slate-600">
              <Trans>Pledged</Trans>
            </dt>
            <dd className="text-base font-semibold text-slate-900">{formatKsh(pledge.amount)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">
              <Trans>Paid</Trans>
            </dt>
            <dd className="text-base font-semibold text-slate-900">{formatKsh(pledge.paid_amount)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">
              <Trans>Still to pay</Trans>
            </dt>
            <dd className="text-base font-semibold text-slate-900">{formatKsh(pledge.remaining_amount)}</dd>
          </div>
        </dl>
        {pledge.overpaid_amount > 0 && (
          <p className="mt-2 text-sm text-slate-700">
            <Trans>You paid {formatKsh(pledge.overpaid_amount)} more than you pledged. Thank you!</Trans>
          </p>
        )}
        {pledge.status === "confirmed" && (
          <p className="mt-2 text-sm font-medium text-green-800">
            <Trans>Fully paid. Thank you for keeping your pledge!</Trans>
          </p>
        )}
        <button
          type="button"
          onClick={() => void receipt.refetch()}
          disabled={receipt.isFetching}
          className="mt-2 text-sm font-medium text-brand-700 underline-offset-2 hover:underline disabled:opacity-60"
        >
          {receipt.isFetching ? <Trans>Checking...</Trans> : <Trans>Check for payments</Trans>}
        </button>
      </div>

      <PlanPanel receipt={pledge} heading={Section} />

      <PayNowPanel receipt={pledge} heading={Section} />

      <section aria-labelledby="how-to-pay-heading">
        <Section id="how-to-pay-heading" className="font-semibold text-slate-900">
          <Trans>How to pay</Trans>
        </Section>
        <p className="mt-1 text-sm text-slate-600">
          <Trans>Pay all at once or in instalments by {deadline}.</Trans>
        </p>
        <ul className="mt-3 space-y-3">
          {pledge.payment_instructions.map((instruction, index) => (
            <PaymentInstructionCard
              // Two accounts can read the same (two cash points), so the position is the key.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for this pledge
              key={index}
              instruction={instruction}
              heading={Section === "h2" ? "h3" : "h4"}
            />
          ))}
        </ul>
        <button
          type="button"
          onClick={() => void copy(details, howToPayText(pledge))}
          className="mt-3 text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          {details.copied ? <Trans>Copied!</Trans> : <Trans>Copy payment details</Trans>}
        </button>
      </section>
    </div>
  );
}

const phoneSchema = v.object({ phone: pledgeSchema.entries.phone });

/**
 * 'Pay now with M-Pesa' while something remains to pay: a PIN prompt for the rest of the pledge,
 * followed here until M-Pesa answers.
 */
function PayNowPanel({ receipt, heading: Heading }: { receipt: PledgeReceipt; heading: SectionHeading }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [started, setStarted] = useState<Payment | null>(null);
  const [otherPhone, setOtherPhone] = useState(false);
  const wait = useMpesaWait(started?.reference ?? null, started);
  const payment = wait.payment;
  const attemptKey = useAttemptKey();
  const form = useSchemaForm(phoneSchema, { phone: "" });

  const start = useStartPledgeStkPush(receipt.code);
  const send = (phone: string) =>
    start.mutate(
      { phone, key: attemptKey.take() },
      {
        onSuccess: (payment) => {
          attemptKey.settle();
          setStarted(payment);
        },
        onError: (error) => {
          attemptKey.settle(error);
          showFieldErrors(error, form, ["phone"]);
        },
      },
    );

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
  if (!receipt.stk_push_available && !started) return null;

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
    const phoneHint = receipt.phone_hint;
    body = (
      <form
        noValidate
        className="space-y-3"
        onSubmit={(event) => {
          if (otherPhone) return void form.handleSubmit((values) => send(values.phone))(event);
          event.preventDefault();
          send("");
        }}
      >
        <p className="text-sm text-slate-700">
          {otherPhone ? (
            <Trans>Pay {remaining} now: a prompt for your M-Pesa PIN comes to the number below.</Trans>
          ) : (
            <Trans>
              Pay {remaining} now: a prompt for your M-Pesa PIN comes to {phoneHint}.
            </Trans>
          )}
        </p>
        {otherPhone && (
          <TextField
            label={t`M-Pesa phone number`}
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
          {start.isPending ? <Trans>Sending...</Trans> : <Trans>Pay now with M-Pesa</Trans>}
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
        <Trans>Pay with M-Pesa now</Trans>
      </Heading>
      {body}
    </section>
  );
}
