import { Trans, useLingui } from "@lingui/react/macro";
import { type ComponentType, type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton, secondaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { PaymentInstructionCard } from "@/components/PaymentInstructionCard";
import { ProgressBar } from "@/components/ProgressBar";
import { RoleBadge } from "@/components/RoleBadge";
import { TextField } from "@/components/TextField";
import { DialCode } from "@/features/ussd/DialCode";
import { errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import { useSession } from "@/lib/session";
import { type Campaign, isNotFound, useCampaign } from "./api";
import { sendCampaignView } from "./beacon";
import { CampaignFigures } from "./CampaignFigures";
import { CampaignNotFound } from "./CampaignNotFound";
import { CoverImage } from "./CoverImage";
import { LikeButton } from "./LikeButton";
import { formatCalendarDate, parseCampaignId, youtubeEmbedUrl } from "./links";
import { SharePanel } from "./SharePanel";

// Only admins use the dialog (and its form code): it loads when they first reach for it.
const loadAdminEditDialog = () => import("./AdminEditDialog");
const AdminEditDialog = lazy(loadAdminEditDialog);
/** What the pledges feature shows on the page, given by the route (src/App.tsx): features compose there,
 * and campaigns imports none of the features above it. The pledge and donation lists and how the money
 * was used load after the campaign; Pledge Management only for its organizer and admins. */
export type CampaignPageParts = {
  Activity: ComponentType<{ campaign: Campaign }>;
  Management: ComponentType<{ campaignId: number; canAct: boolean }>;
  /** How the money was used (the spending feature); the team's link to record spending when ``team``. */
  Spending: ComponentType<{ campaignId: number; team: boolean }>;
  /** The champions' leaderboards and 'Become a champion'; the team's champions panel when ``team``. */
  Champions: ComponentType<{ campaign: Campaign; team: boolean }>;
};

export default function CampaignPage({ parts }: { parts: CampaignPageParts }) {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return (
    <AppLayout>{id === null ? <CampaignNotFound /> : <CampaignLoader id={id} parts={parts} />}</AppLayout>
  );
}

function CampaignLoader({ id, parts }: { id: number; parts: CampaignPageParts }) {
  const campaign = useCampaign(id);
  if (campaign.isError && isNotFound(campaign.error)) return <CampaignNotFound />;
  if (campaign.data) {
    return <CampaignView campaign={campaign.data} fresh={campaign.isFetchedAfterMount} parts={parts} />;
  }
  if (campaign.isError) {
    return <PageLoadError message={errorMessage(campaign.error)} retry={() => void campaign.refetch()} />;
  }
  return <PageSkeleton />;
}

/** `fresh`: the viewer's own fields (liked, may edit) have arrived since the page opened. */
function CampaignView({
  campaign,
  fresh,
  parts,
}: {
  campaign: Campaign;
  fresh: boolean;
  parts: CampaignPageParts;
}) {
  const {
    Activity: CampaignActivity,
    Management: PledgeManagement,
    Spending: SpendingSection,
    Champions: ChampionsSection,
  } = parts;
  const { t, i18n } = useLingui();
  const session = useSession();
  const isAdmin = session.data?.user?.is_admin ?? false;
  const sessionLoaded = session.isSuccess;
  const pledged = formatKsh(campaign.pledged_total);
  const goal = formatKsh(campaign.goal);
  const percent = campaign.progress_percent_uncapped;
  const endDate = formatCalendarDate(campaign.end_date, i18n.locale);
  const open = campaign.status === "active" && !campaign.has_ended;
  const finished = campaign.status === "closed" || campaign.has_ended;

  useEffect(() => {
    // Once the session has brought the CSRF token. The server leaves out the organizer's own views.
    if (sessionLoaded) sendCampaignView(campaign.id);
  }, [campaign.id, sessionLoaded]);

  return (
    <article className="mx-auto w-full max-w-6xl px-4 py-6 sm:py-10">
      <Link href="/explore" className="text-sm font-medium text-brand-700 hover:underline">
        <span aria-hidden="true">← </span>
        <Trans>Back to Campaigns</Trans>
      </Link>
      <div className="mt-4 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr]">
        <div>
          <Cover campaign={campaign} />
          <div className="mt-6 flex flex-wrap items-center gap-2">
            <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold tracking-wide text-brand-800 uppercase">
              {campaign.category_label}
            </span>
            {finished ? (
              <FinishedBadge closed={campaign.status === "closed"} />
            ) : (
              isAdmin && <StatusBadge status={campaign.status} />
            )}
          </div>
          <h1 className="mt-3 text-2xl font-bold text-slate-900 sm:text-3xl">{campaign.title}</h1>
          <p className="mt-2 text-slate-700">
            <Trans>
              Organized by <span className="font-medium text-slate-900">{campaign.organizer_name}</span>
            </Trans>
            {campaign.organizer && <span className="block text-sm text-slate-600">{campaign.organizer}</span>}
          </p>
          <p className="mt-4 text-lg text-slate-700">{campaign.description}</p>
        </div>

        <aside className="space-y-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <section
            aria-labelledby="progress-heading"
            className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
          >
            <h2 id="progress-heading" className="sr-only">
              <Trans>Progress</Trans>
            </h2>
            <p className="text-2xl font-bold text-slate-900">{pledged}</p>
            <p className="text-sm text-slate-600">
              <Trans>pledged of {goal} goal</Trans>
            </p>
            <div className="mt-3">
              <ProgressBar percent={percent} label={t`Progress towards the goal`} />
            </div>
            <CampaignFigures campaign={campaign} figures={["progress", "raised", "endsOn", "timeLeft"]} />
            {open ? (
              <div className="mt-5 grid gap-2">
                <Link href={`/campaign/${campaign.id}/pledge`} className={primaryButton}>
                  <Trans>Pledge</Trans>
                </Link>
                <Link href={`/campaign/${campaign.id}/donate`} className={secondaryButton}>
                  <Trans>Donate</Trans>
                </Link>
                <DialCode campaignId={campaign.id} className="text-center text-sm text-slate-700" />
              </div>
            ) : finished ? (
              <div className="mt-5 space-y-3">
                <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-800">
                  {campaign.status === "closed" ? (
                    <Trans>This campaign is closed and takes no new pledges or donations.</Trans>
                  ) : (
                    <Trans>This campaign ended on {endDate} and takes no new pledges or donations.</Trans>
                  )}
                </p>
                <PayYourPledge />
              </div>
            ) : (
              <p className="mt-5 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
                <Trans>This campaign is not open for pledges or donations.</Trans>
              </p>
            )}
            {campaign.viewer_role && fresh && (
              <div className="mt-4">
                <RoleBadge organization={campaign.organization_name} role={campaign.viewer_role} />
              </div>
            )}
            <div className="mt-4 flex flex-wrap items-center gap-2">
              <LikeButton campaign={campaign} ready={fresh} />
              {campaign.can_edit && (
                <Link
                  href={`/edit-campaign/${campaign.id}`}
                  className="rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:border-brand-600"
                >
                  <Trans>Edit</Trans>
                </Link>
              )}
              {campaign.can_see_pledges && fresh && (
                <Link
                  href={`/campaign/${campaign.id}/analytics`}
                  className="rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:border-brand-600"
                >
                  <Trans>Analytics</Trans>
                </Link>
              )}
              {(campaign.viewer_role || campaign.can_edit) && fresh && (
                <Link
                  href={`/campaign/${campaign.id}/events`}
                  className="rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:border-brand-600"
                >
                  <Trans>Events</Trans>
                </Link>
              )}
              {isAdmin && fresh && <AdminEditButton campaign={campaign} />}
            </div>
          </section>
          {campaign.can_share && <SharePanel campaign={campaign} />}
          <HowToPay campaign={campaign} />
        </aside>

        <section aria-labelledby="story-heading" className="lg:col-start-1">
          <h2 id="story-heading" className="text-xl font-semibold text-slate-900">
            <Trans>Story</Trans>
          </h2>
          <p className="mt-3 whitespace-pre-line text-slate-800">{campaign.story}</p>
        </section>
        <div className="lg:col-start-1">
          <Suspense fallback={null}>
            <SpendingSection campaignId={campaign.id} team={campaign.can_see_pledges && fresh} />
          </Suspense>
        </div>
        <div className="lg:col-start-1">
          <Suspense fallback={null}>
            <ChampionsSection campaign={campaign} team={campaign.can_see_pledges && fresh} />
          </Suspense>
        </div>
        <div className="lg:col-start-1">
          <Suspense fallback={null}>
            <CampaignActivity campaign={campaign} />
          </Suspense>
        </div>
      </div>
      {(campaign.can_see_pledges || isAdmin) && fresh && (
        <div className="mt-10 border-t border-slate-200 pt-8">
          <Suspense fallback={<PageSkeleton />}>
            <PledgeManagement campaignId={campaign.id} canAct={campaign.can_manage_pledges || isAdmin} />
          </Suspense>
        </div>
      )}
    </article>
  );
}

/** Where givers pay: the campaign's own accounts (never Harambee's), with 'your pledge code' where a
 * pledge's code goes; its team is warned while a legacy campaign still shows a personal number. */
function HowToPay({ campaign }: { campaign: Campaign }) {
  if (campaign.payment_instructions.length === 0) return null;
  return (
    <section aria-labelledby="how-to-pay-heading" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="how-to-pay-heading" className="font-semibold text-slate-900">
        <Trans>How to pay</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {/* No organization name: a personal one not yet named, whose name is its organizer's (never a payee). */}
        {campaign.organization_name ? (
          <Trans>The money goes straight to {campaign.organization_name}'s own accounts.</Trans>
        ) : (
          <Trans>The money goes straight to this campaign's own accounts.</Trans>
        )}
      </p>
      {campaign.shows_personal_number && (campaign.can_manage_pledges || campaign.can_edit) && (
        <p role="alert" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          <Trans>
            This campaign still shows a personal M-Pesa number. Money sent to a person's phone is easily
            diverted: add your organization's paybill, till or bank account instead.
          </Trans>
        </p>
      )}
      <ul className="mt-3 space-y-3">
        {campaign.payment_instructions.map((instruction, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two accounts can read the same; the order is fixed
          <PaymentInstructionCard key={index} instruction={instruction} />
        ))}
      </ul>
    </section>
  );
}

/** The cover: the YouTube video, an uploaded video, or the picture (with a fallback if it fails). */
function Cover({ campaign }: { campaign: Campaign }) {
  const { t } = useLingui();
  const frame = "aspect-video w-full overflow-hidden rounded-xl bg-slate-100";
  if (campaign.youtube_id) {
    return (
      <iframe
        src={youtubeEmbedUrl(campaign.youtube_id)}
        title={t`Video: ${campaign.title}`}
        allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
        className={frame}
      />
    );
  }
  if (campaign.media_type === "video" && campaign.image_url) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: organizers upload their own videos without captions
      <video
        src={campaign.image_url}
        controls
        preload="metadata"
        className={frame}
        aria-label={campaign.title}
      />
    );
  }
  return (
    <CoverImage
      src={campaign.image_url}
      alt={campaign.title}
      srcset={campaign.cover_srcset}
      // The page's left column: the whole width on phones, 46rem beside the progress card on wide screens.
      sizes="(min-width: 1024px) 46rem, 100vw"
      className="rounded-xl"
    />
  );
}

/** Everyone sees that a campaign is over: closed early, or past its end date. */
function FinishedBadge({ closed }: { closed: boolean }) {
  return (
    <span className="rounded-full bg-slate-200 px-3 py-1 text-xs font-semibold text-slate-800">
      {closed ? <Trans>Closed</Trans> : <Trans>Ended</Trans>}
    </span>
  );
}

/** Those who pledged to a finished campaign still pay: their code leads to their pledge's page. */
function PayYourPledge() {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const [code, setCode] = useState("");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const cleaned = code.replace(/\s/g, "").toUpperCase();
    if (cleaned) navigate(`/pledges/${encodeURIComponent(cleaned)}`);
  };
  return (
    <form onSubmit={onSubmit} className="space-y-2" aria-labelledby="pay-pledge-heading">
      <h3 id="pay-pledge-heading" className="font-semibold text-slate-900">
        <Trans>Pay your pledge</Trans>
      </h3>
      <TextField
        label={t`Your pledge code`}
        autoComplete="off"
        autoCapitalize="characters"
        maxLength={12}
        hint={<Trans>It is in the SMS and e-mail you got when you pledged.</Trans>}
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <button type="submit" className={primaryButton} disabled={!code.trim()}>
        <Trans>Pay your pledge</Trans>
      </button>
    </form>
  );
}

/** Admins see the status: active green, pending amber, anything else red as 'other'. */
function StatusBadge({ status }: { status: Campaign["status"] }) {
  const badge = "rounded-full px-3 py-1 text-xs font-semibold";
  if (status === "active") {
    return (
      <span className={`${badge} bg-green-100 text-green-800`}>
        <Trans>Active</Trans>
      </span>
    );
  }
  if (status === "pending") {
    return (
      <span className={`${badge} bg-amber-100 text-amber-900`}>
        <Trans>Pending</Trans>
      </span>
    );
  }
  return (
    <span className={`${badge} bg-red-100 text-red-800`}>
      <Trans>Other</Trans>
    </span>
  );
}

function AdminEditButton({ campaign }: { campaign: Campaign }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="dialog"
        onPointerEnter={() => void loadAdminEditDialog()}
        onFocus={() => void loadAdminEditDialog()}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        className="rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:border-brand-600"
      >
        <Trans>Edit Campaign</Trans>
      </button>
      {opened && (
        <Suspense fallback={null}>
          <AdminEditDialog campaign={campaign} open={open} onOpenChange={setOpen} returnFocusTo={buttonRef} />
        </Suspense>
      )}
    </>
  );
}
