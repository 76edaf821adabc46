import { Trans, useLingui } from "@lingui/react/macro";
import { primaryButton } from "@/components/buttonStyles";
import type { Payment } from "./api";
import { paymentView } from "./outcome";

// The steps of following a payment once started, shared by the fee dialog and the donation and pledge
// payments: the framed card checkout, 'Check your phone' and the outcome.

/** The hosted card checkout page, framed; each page it loads (e.g. its return page) may bring the outcome. */
export function CheckoutFrame({ url, onLoad, onBack }: { url: string; onLoad(): void; onBack(): void }) {
  const { t } = useLingui();
  return (
    <div className="mt-4">
      <iframe
        title={t`Card payment`}
        src={url}
        onLoad={onLoad}
        className="h-[26rem] w-full rounded-md border border-slate-200"
      />
      <p className="mt-2 text-sm text-slate-600" role="status">
        <Trans>Waiting for your payment...</Trans>
      </p>
      <button
        type="button"
        onClick={onBack}
        className="mt-2 text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
      >
        <Trans>Use another payment method</Trans>
      </button>
    </div>
  );
}

/** 'Check your phone' while an STK Push waits for the payer's PIN. */
export function MpesaWaiting({ payment }: { payment: Payment }) {
  const view = paymentView(payment);
  return (
    <div className="mt-6 text-center" role="status">
      <div className="mx-auto h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700" />
      <p className="mt-4 text-lg font-semibold text-slate-900">{view.message}</p>
      {view.detail && <p className="mt-1 text-slate-700">{view.detail}</p>}
      <p className="mt-3 text-sm text-slate-600">
        <Trans>This window closes after 30 seconds; your payment keeps being tracked.</Trans>
      </p>
    </div>
  );
}

/** How the payment ended: the receipt, or what went wrong with a way to try again. */
export function PaymentOutcome({
  payment,
  onDone,
  onRetry,
}: {
  payment: Payment | undefined;
  onDone(): void;
  onRetry(): void;
}) {
  if (!payment) return null;
  const view = paymentView(payment);
  const success = view.tone === "success";
  return (
    <div className="mt-6 text-center">
      <div
        className={`mx-auto flex h-12 w-12 items-center justify-center rounded-full ${success ? "bg-brand-100 text-brand-700" : "bg-red-100 text-red-700"}`}
      >
        <svg
          viewBox="0 0 24 24"
          className="h-6 w-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          aria-hidden="true"
        >
          <path d={success ? "M5 13l4 4L19 7" : "M6 6l12 12M18 6L6 18"} />
        </svg>
      </div>
      <p role={success ? "status" : "alert"} className="mt-4 text-lg font-semibold text-slate-900">
        {view.message}
      </p>
      <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-center">
        {!success && (
          <button type="button" onClick={onRetry} className={`${primaryButton} sm:w-auto`}>
            <Trans>Try again</Trans>
          </button>
        )}
        <button
          type="button"
          onClick={onDone}
          className={
            success
              ? `${primaryButton} sm:w-auto`
              : "rounded-md border border-slate-300 px-4 py-2.5 font-medium text-slate-700 hover:bg-slate-50"
          }
        >
          {success ? <Trans>Done</Trans> : <Trans>Close</Trans>}
        </button>
      </div>
    </div>
  );
}
