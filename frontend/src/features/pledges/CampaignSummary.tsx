import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "wouter";
import { ProgressBar } from "@/components/ProgressBar";
import type { Campaign } from "@/features/campaigns/api";
import { CampaignFigures } from "@/features/campaigns/CampaignFigures";
import { CoverImage } from "@/features/campaigns/CoverImage";
import { formatKsh } from "@/lib/money";

/** The campaign at a glance beside (or behind) the pledge and donation forms: what, who, how far. */
export function CampaignSummary({
  campaign,
  heading: Heading = "h2",
}: {
  campaign: Campaign;
  heading?: "h1" | "h2";
}) {
  const { t } = useLingui();
  const pledged = formatKsh(campaign.pledged_total);
  const goal = formatKsh(campaign.goal);
  return (
    <section
      aria-labelledby="summary-heading"
      className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <CoverImage
        src={campaign.cover_image_url}
        alt=""
        srcset={campaign.cover_srcset}
        // Beside the form (or above it on phones): at most 42rem wide.
        sizes="(min-width: 672px) 42rem, 100vw"
      />
      <div className="p-5">
        <Heading id="summary-heading" className="text-xl font-bold text-slate-900">
          <Link href={`/campaign/${campaign.id}`} className="hover:underline">
            {campaign.title}
          </Link>
        </Heading>
        <p className="mt-1 text-sm text-slate-600">
          <Trans>Organized by {campaign.organizer_name}</Trans>
        </p>
        <p className="mt-4 font-semibold text-slate-900">
          <Trans>
            {pledged} <span className="font-normal text-slate-600">pledged of {goal} goal</span>
          </Trans>
        </p>
        <div className="mt-2">
          <ProgressBar percent={campaign.progress_percent} label={t`Progress towards the goal`} />
        </div>
        <CampaignFigures
          campaign={campaign}
          figures={["raised", "payers", "donors", "timeLeft"]}
          className="grid-cols-2 sm:grid-cols-4"
        />
      </div>
    </section>
  );
}

/** The summary's shape while the campaign loads. */
export function CampaignSummarySkeleton() {
  return (
    <div
      className="animate-pulse overflow-hidden rounded-xl border border-slate-200 bg-white"
      aria-hidden="true"
    >
      <div className="aspect-video bg-slate-200" />
      <div className="space-y-3 p-5">
        <div className="h-6 w-3/4 rounded bg-slate-200" />
        <div className="h-4 w-1/2 rounded bg-slate-200" />
        <div className="h-2.5 rounded bg-slate-200" />
      </div>
    </div>
  );
}
