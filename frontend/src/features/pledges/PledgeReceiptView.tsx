import { Trans, useLingui } from "@lingui/react/macro";
import { lazy, Suspense } from "react";
import { PaymentInstructionCard } from "@/components/PaymentInstructionCard";
import { toast } from "@/components/toast";
import { formatCalendarDate } from "@/features/campaigns/links";
import { formatKsh } from "@/lib/money";
import { type PledgeReceipt, usePledgeReceipt } from "./api";
import { howToPayText } from "./format";
import { PledgeStatusBadge } from "./PledgeStatusBadge";
import { useCopied } from "./useCopied";

// Paying now and the instalment plan are forms (react-hook-form, valibot, M-Pesa's wait): they come in
// chunks of their own, asked for as soon as this module runs, so the receipt itself shows and works
// without them. The server renders them into the page; until they arrive they stay its HTML.
const planPanelModule = import("./PlanPanel");
const payNowPanelModule = import("./PayNowPanel");
const PlanPanel = lazy(() => planPanelModule.then((module) => ({ default: module.PlanPanel })));
const PayNowPanel = lazy(() => payNowPanelModule.then((module) => ({ default: module.PayNowPanel })));

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

      <Suspense fallback={null}>
        <PlanPanel receipt={pledge} heading={Section} />
        <PayNowPanel receipt={pledge} heading={Section} />
      </Suspense>

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
