import { Trans } from "@lingui/react/macro";
import { lazy, Suspense } from "react";
import { useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { isNotFound, useCampaign } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId } from "@/features/campaigns/links";
import { CampaignSummary, CampaignSummarySkeleton } from "./CampaignSummary";

// The form's code (react-hook-form, valibot) loads beside the campaign summary, which paints first:
// both in the first load would exceed the budget of a page opened from a WhatsApp link.
const DonationForm = lazy(() => import("./DonationForm"));

/** /campaign/{id}/donate: a preset or own amount, the donor's details, then M-Pesa or card. */
export default function DonatePage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return <AppLayout>{id === null ? <CampaignNotFound /> : <DonateLoader id={id} />}</AppLayout>;
}

function DonateLoader({ id }: { id: number }) {
  const campaign = useCampaign(id);
  if (campaign.isError && isNotFound(campaign.error)) return <CampaignNotFound />;
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-6 sm:py-10 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <section
        aria-labelledby="donate-heading"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 lg:order-2"
      >
        <h1 id="donate-heading" className="text-2xl font-bold text-slate-900">
          <Trans>Make a donation</Trans>
        </h1>
        {campaign.isError && !campaign.data ? (
          <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-red-800">
            <Trans>Campaign not loaded</Trans>
          </p>
        ) : campaign.data && campaign.data.status !== "active" ? (
          <p className="mt-4 rounded-md bg-amber-50 p-3 text-amber-900">
            <Trans>This campaign is not open for pledges or donations.</Trans>
          </p>
        ) : (
          <Suspense fallback={<FormSkeleton />}>
            <DonationForm campaign={campaign.data} />
          </Suspense>
        )}
      </section>
      <div className="lg:order-1">
        {campaign.data ? <CampaignSummary campaign={campaign.data} /> : <CampaignSummarySkeleton />}
      </div>
    </div>
  );
}

/** The form's shape while its code arrives. */
function FormSkeleton() {
  return (
    <div className="mt-4 animate-pulse space-y-4" aria-hidden="true">
      <div className="grid grid-cols-3 gap-2">
        {[1, 2, 3, 4, 5, 6].map((key) => (
          <div key={key} className="h-11 rounded-md bg-slate-200" />
        ))}
      </div>
      {[1, 2, 3, 4].map((key) => (
        <div key={key} className="h-16 rounded-md bg-slate-200" />
      ))}
      <div className="h-11 rounded-md bg-slate-300" />
    </div>
  );
}
