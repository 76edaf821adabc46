import { Trans, useLingui } from "@lingui/react/macro";
import { FigureHint } from "@/components/FigureHint";
import { formatKsh } from "@/lib/money";
import type { Campaign } from "./api";
import { DaysLeft } from "./DaysLeft";
import { formatCalendarDate } from "./links";

export type CampaignFigure = "progress" | "raised" | "payers" | "donors" | "endsOn" | "timeLeft";

/** The campaign's figures, the same wherever they are shown (its page, the summary beside the pledge
 * and donation forms): each a label and a value, in the order asked for. */
export function CampaignFigures({
  campaign,
  figures,
  className = "grid-cols-2",
}: {
  campaign: Campaign;
  figures: CampaignFigure[];
  className?: string;
}) {
  const { t, i18n } = useLingui();
  const item = (figure: CampaignFigure) => {
    switch (figure) {
      case "progress":
        return { label: <Trans>Progress</Trans>, value: `${campaign.progress_percent_uncapped}%` };
      case "raised":
        return { label: <Trans>Raised</Trans>, value: formatKsh(campaign.raised_total) };
      case "payers":
        return {
          label: (
            <>
              <Trans>Payers</Trans>
              <FigureHint
                figure={t`Payers`}
                explanation={t`People who paid towards their pledges, each counted once (known by phone number, else e-mail, else account).`}
              />
            </>
          ),
          value: campaign.payers,
        };
      case "donors":
        return {
          label: (
            <>
              <Trans>Donors</Trans>
              <FigureHint
                figure={t`Donors`}
                explanation={t`People who gave without a pledge, online or at the desk, each counted once (known by phone number, else e-mail, else account; a gift with none of them counts as one).`}
              />
            </>
          ),
          value: campaign.donors,
        };
      case "endsOn":
        return {
          label: <Trans>Ends on</Trans>,
          value: (
            // Phones' date names differ with their ICU version: hydration keeps the server's.
            <time dateTime={campaign.end_date} suppressHydrationWarning>
              {formatCalendarDate(campaign.end_date, i18n.locale)}
            </time>
          ),
        };
      case "timeLeft":
        return { label: <Trans>Time left</Trans>, value: <DaysLeft days={campaign.days_left} /> };
    }
  };
  return (
    <dl className={`mt-4 grid gap-3 text-sm ${className}`}>
      {figures.map((figure) => {
        const { label, value } = item(figure);
        return (
          <div key={figure}>
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-semibold text-slate-900">{value}</dd>
          </div>
        );
      })}
    </dl>
  );
}
