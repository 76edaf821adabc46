import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { Link } from "wouter";
import { RoleBadge } from "@/components/RoleBadge";
import { DialCode } from "@/features/ussd/DialCode";
import type { Schemas } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";

export type DashboardCampaign = Schemas["DashboardCampaignOut"];

const buttonBase = "inline-flex w-full items-center justify-center rounded-md px-4 py-2 font-semibold";

/** A campaign of one of the user's organizations, with their role; a pending one asks its owners for
 * the activation payment, a suspended one says why an admin suspended it and whom to write to. */
export function CampaignCard({
  campaign,
  supportEmail,
  onPayNow,
}: {
  campaign: DashboardCampaign;
  supportEmail: string;
  onPayNow(): void;
}) {
  const { t } = useLingui();
  const pending = campaign.status === "pending";
  const owner = campaign.viewer_role === "owner";
  const titleId = `campaign-${campaign.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      {campaign.cover_image_url ? (
        <img src={campaign.cover_image_url} alt="" loading="lazy" className="h-40 w-full object-cover" />
      ) : (
        <div className="h-40 w-full bg-gradient-to-br from-brand-100 to-brand-50" />
      )}
      <div className="flex flex-1 flex-col p-4">
        <div className="flex items-start justify-between gap-2">
          <p className="text-sm text-slate-600">
            {campaign.category_label}
            {campaign.type === "fundraising" && (
              <>
                {" · "}
                <Trans>Fundraiser</Trans>
              </>
            )}
          </p>
          <StatusBadge status={campaign.has_ended ? "ended" : campaign.status} />
        </div>
        <h3 id={titleId} className="mt-1 text-lg font-semibold text-slate-900">
          {campaign.title}
        </h3>
        <RoleBadge organization={campaign.organization_name} role={campaign.viewer_role} />
        <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
          <div className="h-full bg-brand-600" style={{ width: `${campaign.progress_percent}%` }} />
        </div>
        <p className="mt-2 text-sm text-slate-700">
          <Trans>
            {formatKsh(campaign.pledged_total)} pledged of {formatKsh(campaign.goal)} (
            {campaign.progress_percent}
            %)
          </Trans>
        </p>
        <p className="text-sm text-slate-700">
          <Trans>{formatKsh(campaign.raised_total)} paid</Trans>
        </p>
        {campaign.like_count !== null && (
          <p className="mt-1 text-sm text-slate-600">
            <Plural value={campaign.like_count} one="# like" other="# likes" />
          </p>
        )}
        {campaign.status === "active" && (
          <DialCode campaignId={campaign.id} className="mt-2 text-sm text-slate-700" />
        )}
        {pending && owner && (
          <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3">
            <p className="font-semibold text-amber-900">
              <Trans>Payment Required</Trans>
            </p>
            <p className="text-sm text-amber-900">
              <Trans>Complete payment to activate your campaign</Trans>
            </p>
            <button
              type="button"
              onClick={onPayNow}
              aria-label={t`Pay Now for ${campaign.title}`}
              className={`${buttonBase} mt-3 bg-amber-700 text-white hover:bg-amber-800`}
            >
              <Trans>Pay Now</Trans>
            </button>
          </div>
        )}
        {campaign.status === "suspended" && (
          <div
            role="note"
            className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
          >
            <p className="font-semibold">
              <Trans>An administrator has suspended this campaign</Trans>
            </p>
            <p className="mt-1">
              <Trans>Reason: {campaign.suspension_reason}</Trans>
            </p>
            <p className="mt-1">
              <Trans>
                Questions? Write to{" "}
                <a href={`mailto:${supportEmail}`} className="font-medium underline">
                  {supportEmail}
                </a>
                .
              </Trans>
            </p>
          </div>
        )}
        <div className="mt-auto pt-4">
          {pending ? (
            <button
              type="button"
              disabled
              className={`${buttonBase} cursor-not-allowed border border-slate-200 bg-slate-100 text-slate-500`}
            >
              <Trans>View Campaign</Trans>
            </button>
          ) : (
            <Link
              href={`/campaign/${campaign.id}`}
              className={`${buttonBase} border border-brand-700 text-brand-700 hover:bg-brand-50`}
            >
              <Trans>View Campaign</Trans>
            </Link>
          )}
          {campaign.status === "active" && !campaign.has_ended && campaign.viewer_role !== "viewer" && (
            // Owners, treasurers and ushers record pledge cards and gifts there (RECORD_AT_DESK).
            <Link
              href={`/campaign/${campaign.id}/desk`}
              aria-label={t`Usher's desk for ${campaign.title}`}
              className="mt-2 block text-center text-sm font-medium text-brand-700 hover:underline"
            >
              <Trans>Usher's desk</Trans>
            </Link>
          )}
          {!pending && campaign.viewer_role !== "usher" && (
            <Link
              href={`/campaign/${campaign.id}/analytics`}
              aria-label={t`Analytics for ${campaign.title}`}
              className="mt-2 block text-center text-sm font-medium text-brand-700 hover:underline"
            >
              <Trans>Analytics</Trans>
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}

function StatusBadge({ status }: { status: DashboardCampaign["status"] | "ended" }) {
  // The spec's display states: active, pending, and any other status in red; a finished campaign
  // (past its end date, or closed early) in grey, as nothing is wrong with it.
  const styles = {
    active: "bg-brand-100 text-brand-800",
    pending: "bg-amber-100 text-amber-900",
    ended: "bg-slate-200 text-slate-800",
    closed: "bg-slate-200 text-slate-800",
    suspended: "bg-red-100 text-red-800",
  };
  const labels = {
    active: <Trans>Active</Trans>,
    pending: <Trans>Pending</Trans>,
    ended: <Trans>Ended</Trans>,
    closed: <Trans>Closed</Trans>,
    suspended: <Trans>Suspended</Trans>,
  };
  return (
    <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${styles[status]}`}>
      {labels[status]}
    </span>
  );
}

export function CampaignCardSkeleton() {
  return (
    <div
      className="animate-pulse overflow-hidden rounded-xl border border-slate-200 bg-white"
      aria-hidden="true"
    >
      <div className="h-40 bg-slate-200" />
      <div className="space-y-3 p-4">
        <div className="h-4 w-1/3 rounded bg-slate-200" />
        <div className="h-6 w-3/4 rounded bg-slate-200" />
        <div className="h-2 rounded bg-slate-200" />
        <div className="h-9 rounded bg-slate-200" />
      </div>
    </div>
  );
}
