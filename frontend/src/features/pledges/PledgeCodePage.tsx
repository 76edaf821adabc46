import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { PageSkeleton } from "@/components/PageSkeleton";
import { ApiRequestError } from "@/lib/api/client";
import { pledgeReceiptOptions } from "./api";

import { PledgeReceiptView } from "./PledgeReceiptView";

/** /pledges/{code}: where a pledger's e-mail and SMS lead back to their pledge, to see it and pay. */
export default function PledgeCodePage() {
  const code = (useParams<{ code?: string }>().code ?? "").toUpperCase();
  const receipt = useQuery(pledgeReceiptOptions(code));
  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-xl px-4 py-6 sm:py-10">
        <h1 className="mb-4 text-2xl font-bold text-slate-900">
          <Trans>Your pledge</Trans>
        </h1>
        {receipt.data ? (
          <PledgeReceiptView initial={receipt.data} returning sectionHeading="h2" />
        ) : receipt.isError ? (
          <div role="alert" className="space-y-3">
            <p>
              {receipt.error instanceof ApiRequestError && receipt.error.status === 404 ? (
                <Trans>
                  We could not find a pledge with the code {code}. Please check the code and try again.
                </Trans>
              ) : (
                receipt.error.message
              )}
            </p>
            <Link href="/explore" className="text-brand-700 underline">
              <Trans>Back to Campaigns</Trans>
            </Link>
          </div>
        ) : (
          <PageSkeleton />
        )}
      </div>
    </AppLayout>
  );
}
