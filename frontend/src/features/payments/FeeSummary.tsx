import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { formatCalendarDate, todayIso } from "@/lib/dates";
import { formatKsh } from "@/lib/money";
import { type FeePurpose, useFees } from "./api";

/** What the fee costs and what it buys, before anything is sent to the payer's phone or card. */
export function FeeSummary({ purpose, campaignTitle }: { purpose: FeePurpose; campaignTitle: string }) {
  const { i18n } = useLingui();
  const fees = useFees();
  if (!fees.data) {
    return <div aria-hidden="true" className="mb-4 h-16 animate-pulse rounded-md bg-slate-100" />;
  }
  const box = "mb-4 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm text-slate-800";
  if (purpose === "campaign_activation") {
    const amount = formatKsh(fees.data.campaign_activation_fee);
    return (
      <div className={box} data-testid="fee-summary">
        <p className="font-semibold text-slate-900">
          <Trans>Activation fee: {amount}, once</Trans>
        </p>
        <p className="mt-1">
          {campaignTitle ? (
            <Trans>
              It makes “{campaignTitle}” public, so it can take pledges and donations. Pledges and donations
              go to your organization's own accounts, not to Harambee.
            </Trans>
          ) : (
            <Trans>
              It makes your campaign public, so it can take pledges and donations. Pledges and donations go to
              your organization's own accounts, not to Harambee.
            </Trans>
          )}
        </p>
      </div>
    );
  }
  const amount = formatKsh(fees.data.subscription_fee);
  const days = fees.data.subscription_period_days;
  const until = formatCalendarDate(isoDateInDays(days), i18n.locale);
  return (
    <div className={box} data-testid="fee-summary">
      <p className="font-semibold text-slate-900">
        <Plural
          value={days}
          one={`Subscription: ${amount} for # day`}
          other={`Subscription: ${amount} for # days`}
        />
      </p>
      <p className="mt-1">
        <Trans>
          Grantfunding AI's grant search and matching until {until}, and your new campaigns start active
          without the activation fee. It does not renew by itself.
        </Trans>
      </p>
    </div>
  );
}

/** The calendar date `days` from today, as the server writes dates. */
function isoDateInDays(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return todayIso(date);
}
