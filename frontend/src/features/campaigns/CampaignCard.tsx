import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "wouter";
import { ProgressBar } from "@/components/ProgressBar";
import { formatKsh } from "@/lib/money";
import type { CampaignCard as CampaignCardData } from "./api";
import { CoverImage } from "./CoverImage";

/**
 * A campaign in a list: cover, category, title, goal, amount pledged and progress (capped at 100%).
 * `aboveTheFold`: among the first cards a visitor sees, so its cover loads at once, not lazily.
 */
export function CampaignCard({
  campaign,
  aboveTheFold = false,
}: {
  campaign: CampaignCardData;
  aboveTheFold?: boolean;
}) {
  const { t } = useLingui();
  const pledged = formatKsh(campaign.pledged_total);
  const goal = formatKsh(campaign.goal);
  return (
    <li>
      <Link
        href={`/campaign/${campaign.id}`}
        className="group flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm hover:shadow-md"
      >
        {/* Decorative here: the title below names the link. */}
        <CoverImage
          src={campaign.cover_image_url}
          alt=""
          srcset={campaign.cover_srcset}
          // Explore's grid (max-w-6xl): three columns on wide screens, two from sm, else the whole width.
          sizes="(min-width: 1024px) 22rem, (min-width: 640px) 50vw, 100vw"
          lazy={!aboveTheFold}
        />
        <div className="flex flex-1 flex-col p-4">
          <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">
            {campaign.category_label}
            {campaign.type === "fundraising" && (
              // The legacy /start-fundraiser wizard's campaigns are listed too (docs/reference/campaigns.md, Explore).
              <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-amber-900 normal-case">
                <Trans>Fundraiser</Trans>
              </span>
            )}
          </p>
          <h2 className="mt-1 line-clamp-2 text-lg font-semibold text-slate-900 group-hover:underline">
            {campaign.title}
          </h2>
          <div className="mt-auto pt-4">
            <ProgressBar percent={campaign.progress_percent} label={t`Progress towards the goal`} />
            <p className="mt-2 text-sm text-slate-700">
              <Trans>
                <span className="font-semibold text-slate-900">{pledged}</span> pledged of {goal}
              </Trans>
            </p>
          </div>
        </div>
      </Link>
    </li>
  );
}

export function CampaignCardSkeleton() {
  return (
    <li
      className="animate-pulse overflow-hidden rounded-xl border border-slate-200 bg-white"
      aria-hidden="true"
    >
      <div className="aspect-video bg-slate-200" />
      <div className="space-y-3 p-4">
        <div className="h-3 w-20 rounded bg-slate-200" />
        <div className="h-5 w-3/4 rounded bg-slate-200" />
        <div className="h-2.5 rounded bg-slate-200" />
        <div className="h-4 w-1/2 rounded bg-slate-200" />
      </div>
    </li>
  );
}
