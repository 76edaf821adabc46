import { Trans, useLingui } from "@lingui/react/macro";
import { primaryButton } from "@/components/buttonStyles";
import { formatCalendarDate } from "@/features/campaigns/links";
import { errorMessage } from "@/lib/api/client";
import { type PledgeReceipt, useStartStandingOrder } from "./api";
import { planCadence } from "./plans";

type StandingOrder = NonNullable<NonNullable<PledgeReceipt["plan"]>["standing_order"]>;

/** How a payer stops an M-Pesa Ratiba standing order: only on their phone (the API creates orders only). */
export function StopOnPhone({ name }: { name: string }) {
  return (
    <Trans>
      To stop it, dial *334# and open M-PESA Ratiba, or use the Ratiba mini app in the M-PESA app, and stop
      the standing order "{name}".
    </Trans>
  );
}

/**
 * 'Pay automatically with M-Pesa' under the pledge's plan: a standing order (M-Pesa Ratiba) the payer
 * approves once with their PIN, then each instalment is paid on its date with the pledge code. Shown
 * where the server offers it (an equal-instalment plan, on time, to a paybill with Ratiba enabled), and
 * with the order's state once asked for.
 */
export function AutomaticPayment({ receipt }: { receipt: PledgeReceipt }) {
  const { t } = useLingui();
  const start = useStartStandingOrder(receipt.code);
  const order = receipt.plan?.standing_order ?? null;
  if (!receipt.plan || (!order && !receipt.standing_order_available)) return null;
  return (
    <div className="mt-3 space-y-2 border-t border-slate-200 pt-3 text-sm">
      {order && <OrderState order={order} frequency={receipt.plan.frequency} />}
      {receipt.standing_order_available && (
        <>
          <p className="text-slate-700">
            <Trans>
              Approve once with your M-Pesa PIN on {receipt.phone_hint}: each instalment is then paid on its
              date, with your pledge code.
            </Trans>
          </p>
          <button
            type="button"
            className={primaryButton}
            disabled={start.isPending}
            onClick={() => start.mutate()}
          >
            {start.isPending ? (
              <Trans>Sending to your phone...</Trans>
            ) : (
              <Trans>Pay automatically with M-Pesa</Trans>
            )}
          </button>
        </>
      )}
      {start.isError && (
        <p role="alert" className="text-red-700">
          {errorMessage(start.error, t`The standing order could not be sent. Please try again.`)}
        </p>
      )}
    </div>
  );
}

function OrderState({ order, frequency }: { order: StandingOrder; frequency: "weekly" | "monthly" }) {
  const { i18n } = useLingui();
  const cadence = planCadence({ instalment: order.amount, frequency });
  const until = formatCalendarDate(order.end_on, i18n.locale);
  if (order.status === "pending") {
    return (
      <p role="status" className="text-slate-800">
        <Trans>Check your phone: approve the standing order ({cadence}) with your M-Pesa PIN.</Trans>
      </p>
    );
  }
  if (order.status === "active") {
    return (
      <p role="status" className="text-emerald-800">
        <Trans>
          Paid automatically with M-Pesa: {cadence} until {until}.
        </Trans>{" "}
        <StopOnPhone name={order.name} />
      </p>
    );
  }
  return (
    <p role="status" className="text-amber-800">
      {order.message} <Trans>No standing order was made: please pay each instalment yourself.</Trans>
    </p>
  );
}
