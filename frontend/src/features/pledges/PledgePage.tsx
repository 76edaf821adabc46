import { Trans } from "@lingui/react/macro";
import { useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { isNotFound, useCampaign } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId } from "@/features/campaigns/links";
import { CampaignSummary, CampaignSummarySkeleton } from "./CampaignSummary";
import { PledgeFlow } from "./PledgeFlow";

/** /pledge/{id}: the pledge form of campaign {id} as a page of its own. */
export default function PledgePage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return <AppLayout>{id === null ? <CampaignNotFound /> : <PledgeOnPage id={id} />}</AppLayout>;
}

function PledgeOnPage({ id }: { id: number }) {
  const campaign = useCampaign(id);
  if (campaign.isError && isNotFound(campaign.error)) return <CampaignNotFound />;
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-6 sm:py-10 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <section
        aria-labelledby="pledge-heading"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 lg:order-2"
      >
        <h1 id="pledge-heading" className="mb-4 text-2xl font-bold text-slate-900">
          <Trans>Make a pledge</Trans>
        </h1>
        <PledgeFlow campaign={campaign.data} failed={campaign.isError} />
      </section>
      <div className="lg:order-1">
        {campaign.data ? <CampaignSummary campaign={campaign.data} /> : <CampaignSummarySkeleton />}
      </div>
    </div>
  );
}
