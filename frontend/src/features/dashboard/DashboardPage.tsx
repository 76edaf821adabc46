import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { toast } from "@/components/toast";
import { useOrganizations } from "@/features/organizations/api";
import { useSession } from "@/lib/session";
import { DASHBOARD_KEY, dashboardOptions } from "./api";
import { CampaignCard, CampaignCardSkeleton, type DashboardCampaign } from "./CampaignCard";
import { QuickStartGuide } from "./QuickStartGuide";
import { RetryButton, StatCards } from "./StatCards";
import { ToolCards } from "./ToolCards";

// The payment dialog (and its form code) loads when an organizer presses Pay Now.
const PaymentDialog = lazy(() => import("@/features/payments/PaymentDialog"));

const WELCOMED_KEY = "hasWelcomed";

export default function DashboardPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  // RequireAuth renders this page only with a signed-in user.
  const name = useSession().data?.user?.display_name ?? "";
  const dashboard = useQuery(dashboardOptions());
  const [paying, setPaying] = useState<DashboardCampaign | null>(null);

  useEffect(() => {
    // Once per browser session; signing out clears sessionStorage.
    if (!name || sessionStorage.getItem(WELCOMED_KEY)) return;
    sessionStorage.setItem(WELCOMED_KEY, "true");
    // Not "glad to see you back": the first visit follows signing up as often as signing in.
    toast({ title: t`Welcome, ${name}!` });
  }, [name, t]);

  const retry = () => void dashboard.refetch();

  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-6xl px-4 py-8">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
          <Trans>Hello, {name}</Trans>
        </h1>
        <p className="mt-1 text-slate-600">
          <Trans>Manage your campaigns and find funding for your ministry or organization.</Trans>
        </p>

        <NameYourOrganization />

        <ToolCards contentToolUrl={dashboard.data?.organization_content_tool_url} />

        <StatCards
          figures={dashboard.data}
          loading={dashboard.isPending}
          failed={dashboard.isError}
          onRetry={retry}
        />

        <QuickStartGuide />

        <section aria-labelledby="my-campaigns" className="mt-10">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="my-campaigns" className="text-xl font-semibold text-slate-900">
              <Trans>My Pledging Campaigns</Trans>
            </h2>
            <Link
              href="/pledge/create-campaign"
              className="inline-flex items-center rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
            >
              <Trans>Create Campaign</Trans>
            </Link>
          </div>
          {dashboard.isPending ? (
            <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" role="status">
              <span className="sr-only">
                <Trans>Loading...</Trans>
              </span>
              <CampaignCardSkeleton />
              <CampaignCardSkeleton />
              <CampaignCardSkeleton />
            </div>
          ) : dashboard.isError ? (
            <div role="alert" className="mt-4 rounded-lg bg-red-50 p-4 text-red-800">
              <p>
                <Trans>Failed to load campaigns.</Trans>
              </p>
              <RetryButton onClick={retry} />
            </div>
          ) : dashboard.data.campaigns.length === 0 ? (
            <p className="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
              <Trans>You have not created any pledging campaigns yet.</Trans>
            </p>
          ) : (
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {dashboard.data.campaigns.map((campaign) => (
                <li key={campaign.id}>
                  <CampaignCard
                    campaign={campaign}
                    supportEmail={dashboard.data.support_email}
                    onPayNow={() => setPaying(campaign)}
                  />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      {paying && (
        <Suspense fallback={null}>
          <PaymentDialog
            open
            onOpenChange={(open) => !open && setPaying(null)}
            purpose="campaign_activation"
            campaignId={paying.id}
            campaignTitle={paying.title}
            title={t`Activate your campaign`}
            description={t`Pay the activation fee to publish "${paying.title}".`}
            // A payment that ended after the dialog stopped watching shows on the next load.
            onSettled={() => void queryClient.invalidateQueries({ queryKey: DASHBOARD_KEY })}
          />
        </Suspense>
      )}
    </AppLayout>
  );
}

/** An owner whose campaigns are in a personal organization (named after them, for older campaigns) is
 * asked to name it: givers read its name as the one they pay. */
function NameYourOrganization() {
  const organizations = useOrganizations();
  const unnamed = organizations.data?.find(
    (organization) => organization.needs_name && organization.can_manage_team,
  );
  if (!unnamed) return null;
  return (
    <div role="note" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <p className="font-semibold">
        <Trans>Name your organization</Trans>
      </p>
      <p className="mt-1 text-sm">
        <Trans>
          Your campaigns belong to an organization made under your own name. Givers read its name as the one
          they pay: give it your church's, ministry's, school's or group's name.
        </Trans>
      </p>
      <Link href={`/organizations/${unnamed.id}`} className="mt-2 inline-block font-medium underline">
        <Trans>Name it now</Trans>
      </Link>
    </div>
  );
}
