import { Trans } from "@lingui/react/macro";
import { lazy, Suspense } from "react";
import { Link } from "wouter";
import { outlineButton } from "@/components/buttonStyles";
import { PageSkeleton } from "@/components/PageSkeleton";
import type { Campaign } from "@/features/campaigns/api";
import { useSession } from "@/lib/session";
import { useLeaderboards } from "./api";
import { Leaderboards } from "./Leaderboards";

// What only a signed-in member needs (the form, their link and QR code) and the team's list of
// champions, teams and cards load for them only: a visitor's campaign page gets the boards alone.
const MyChampionship = lazy(() => import("./MyChampionship"));
const ChampionsPanel = lazy(() =>
  import("./ChampionsPanel").then((module) => ({ default: module.ChampionsPanel })),
);

/**
 * The campaign page's champions: the leaderboards, 'Become a champion' for a signed-in member (then
 * their link, QR code and WhatsApp message), a link to their own circle, and for the campaign's team
 * (`team`) the list of champions and teams, the cards to print and a returned card.
 */
export default function ChampionsSection({ campaign, team }: { campaign: Campaign; team: boolean }) {
  const boards = useLeaderboards(campaign.id);
  const session = useSession();
  const user = session.data?.user;
  const open = campaign.status === "active" && !campaign.has_ended;
  const anyChampion = boards.data
    ? boards.data.overall.champions.length > 0 || boards.data.overall.raised > 0
    : false;
  if (!boards.data || (!open && !anyChampion && !team)) return null;
  return (
    <section aria-labelledby="champions-heading" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="champions-heading" className="text-xl font-semibold text-slate-900">
        <Trans>Champions</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>Members who raise for the campaign from their own family, friends and colleagues.</Trans>
      </p>
      {anyChampion && (
        <div className="mt-4">
          <Leaderboards boards={boards.data} />
        </div>
      )}
      <div className="mt-5">
        {user ? (
          <Suspense fallback={null}>
            <MyChampionship campaign={campaign} boards={boards.data} open={open} user={user} />
          </Suspense>
        ) : (
          open &&
          session.isSuccess && (
            <Link
              href={`/signin?next=${encodeURIComponent(`/campaign/${campaign.id}`)}`}
              className={outlineButton}
            >
              <Trans>Sign in to become a champion</Trans>
            </Link>
          )
        )}
      </div>
      {team && (
        <div className="mt-6 border-t border-slate-200 pt-5">
          <Suspense fallback={<PageSkeleton />}>
            <ChampionsPanel campaignId={campaign.id} canAct={campaign.can_manage_pledges} />
          </Suspense>
        </div>
      )}
    </section>
  );
}
