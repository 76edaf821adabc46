import { Trans } from "@lingui/react/macro";
import { lazy, Suspense, useState } from "react";
import { Link } from "wouter";
import type { Campaign } from "@/features/campaigns/api";
import type { PledgeReceipt } from "./api";
import { PledgeForm } from "./PledgeForm";

// The confirmation (and its M-Pesa payment code) is needed only after pledging: it loads once the
// pledger starts filling in the form (typing, not the focus the dialog takes as it opens, so that a page
// that opens with the form does not load it while it loads itself).
const loadReceipt = () => import("./PledgeReceiptView");
const PledgeReceiptView = lazy(() => loadReceipt().then((module) => ({ default: module.PledgeReceiptView })));

type Props = {
  /** Undefined while it loads. */
  campaign: Campaign | undefined;
  /** The campaign could not be loaded: 'Campaign not loaded'. */
  failed: boolean;
  onCancel?(): void;
};

/** The pledge form, then (once recorded) the pledge's code and how to pay it. */
export function PledgeFlow({ campaign, failed, onCancel }: Props) {
  const [receipt, setReceipt] = useState<PledgeReceipt | null>(null);
  if (receipt) {
    return (
      <Suspense fallback={<div className="h-64 animate-pulse rounded-xl bg-slate-100" aria-hidden="true" />}>
        <PledgeReceiptView initial={receipt} />
      </Suspense>
    );
  }
  if (failed) {
    return (
      <div role="alert" className="rounded-md bg-red-50 p-4 text-red-800">
        <p className="font-medium">
          <Trans>Campaign not loaded</Trans>
        </p>
        <Link href="/explore" className="mt-2 inline-block text-sm font-medium underline">
          <Trans>Back to Campaigns</Trans>
        </Link>
      </div>
    );
  }
  if (campaign && campaign.status !== "active") {
    return (
      <p className="rounded-md bg-amber-50 p-3 text-amber-900">
        <Trans>This campaign is not open for pledges or donations.</Trans>
      </p>
    );
  }
  return (
    <div onInputCapture={() => void loadReceipt()}>
      <PledgeForm campaign={campaign} onPledged={setReceipt} onCancel={onCancel} />
    </div>
  );
}
