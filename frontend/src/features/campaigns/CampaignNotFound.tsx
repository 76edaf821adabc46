import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import { primaryButton } from "@/components/buttonStyles";

/** A missing campaign, or one the viewer may not see (the server answers 404 for both). */
export function CampaignNotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">
        <Trans>Campaign not found</Trans>
      </h1>
      <Link href="/explore" className={`${primaryButton} mt-6 sm:w-auto`}>
        <Trans>Back to Campaigns</Trans>
      </Link>
    </div>
  );
}
