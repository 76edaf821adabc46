import { lazy, Suspense } from "react";
import { useLocation, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { PageSkeleton } from "@/components/PageSkeleton";
import { isNotFound, useCampaign } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId } from "@/features/campaigns/links";
import { CampaignSummary, CampaignSummarySkeleton } from "./CampaignSummary";
import { dialogPanel } from "./styles";

// The dialog (Radix and the form code) arrives while the campaign summary is already on screen:
// both together would exceed the first-load budget of a page opened from a WhatsApp link.
const PledgeDialog = lazy(() => import("./PledgeDialog"));

/** /campaign/{id}/pledge: the pledge form in a dialog over the campaign's summary. */
export default function PledgeDialogPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return <AppLayout>{id === null ? <CampaignNotFound /> : <PledgeOver id={id} />}</AppLayout>;
}

function PledgeOver({ id }: { id: number }) {
  const [, navigate] = useLocation();
  const campaign = useCampaign(id);
  if (campaign.isError && isNotFound(campaign.error)) return <CampaignNotFound />;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6 sm:py-10">
      {campaign.data ? (
        <CampaignSummary campaign={campaign.data} heading="h1" />
      ) : (
        <CampaignSummarySkeleton />
      )}
      <Suspense fallback={<DialogPlaceholder />}>
        <PledgeDialog
          campaign={campaign.data}
          failed={campaign.isError}
          onClose={() => navigate(`/campaign/${id}`)}
        />
      </Suspense>
    </div>
  );
}

/** The dialog's shape for the moment its code is on its way. */
function DialogPlaceholder() {
  return (
    <>
      <div className="fixed inset-0 z-50 bg-slate-900/50" />
      <div className={dialogPanel}>
        <PageSkeleton />
      </div>
    </>
  );
}
