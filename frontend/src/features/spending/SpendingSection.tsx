import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import { useAccountability } from "./api";
import { FigureList } from "./Figures";

/** The campaign page's section 'How the money was used': the figures and a link to the whole account
 * (its data comes with the page, backend/config/spa.py). Shown once something was spent or posted. */
export function SpendingSection({ campaignId, team }: { campaignId: number; team: boolean }) {
  const accountability = useAccountability(campaignId);
  const data = accountability.data;
  if (!data || (data.lines.length === 0 && data.updates.length === 0 && !team)) return null;
  return (
    <section aria-labelledby="money-used-heading" className="flex flex-col gap-3">
      <h2 id="money-used-heading" className="text-xl font-semibold text-slate-900">
        <Trans>How the money was used</Trans>
      </h2>
      <FigureList figures={data.figures} />
      {data.updates[0] && <p className="whitespace-pre-line text-slate-800">{data.updates[0].text}</p>}
      <div className="flex flex-wrap gap-4">
        <Link href={`/campaign/${campaignId}/spending`} className="text-brand-700 underline">
          <Trans>See every payment and receipt</Trans>
        </Link>
        {team && (
          <Link href={`/campaign/${campaignId}/spending/team`} className="text-brand-700 underline">
            <Trans>Record spending</Trans>
          </Link>
        )}
      </div>
    </section>
  );
}
