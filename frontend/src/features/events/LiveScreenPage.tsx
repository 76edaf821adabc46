import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { useParams } from "wouter";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { isNotFound } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId, qrCodeUrl } from "@/features/campaigns/links";
import { ChampionsOnScreen } from "@/features/champions/ChampionsOnScreen";
import { useUssdInfo } from "@/features/ussd/api";
import { errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import { type LiveEntry, type LiveScreen, useLiveScreen } from "./api";
import { type Milestone, milestoneCrossed } from "./milestones";

// How long a celebration fills the screen before it goes away by itself (nobody touches the laptop).
const CELEBRATION_MS = 10_000;

/**
 * /campaign/:id/live: the big screen of a harambee, for a projector (16:9, read from the back row,
 * no scrolling) and for phones in the pews. Totals with a thermometer, the pledges and gifts as they
 * arrive, how to pledge now, the top champions and teams tonight, and a celebration at half-way and
 * at the goal.
 */
export default function LiveScreenPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  if (id === null) {
    return (
      <main id="main">
        <CampaignNotFound />
      </main>
    );
  }
  return <LiveScreenLoader id={id} />;
}

function LiveScreenLoader({ id }: { id: number }) {
  const live = useLiveScreen(id);
  if (!live.data) {
    return (
      <main id="main">
        {live.isError && isNotFound(live.error) ? (
          <CampaignNotFound />
        ) : live.isError ? (
          <PageLoadError message={errorMessage(live.error)} retry={() => void live.refetch()} />
        ) : (
          <PageSkeleton />
        )}
      </main>
    );
  }
  // Offline, TanStack Query holds the polls ("paused") and sends one as soon as the network is back.
  const reconnecting = live.isError || live.fetchStatus === "paused";
  return <LiveScreenView id={id} screen={live.data} reconnecting={reconnecting} />;
}

function LiveScreenView({
  id,
  screen,
  reconnecting,
}: {
  id: number;
  screen: LiveScreen;
  reconnecting: boolean;
}) {
  const milestone = useCelebration(screen.progress_percent_uncapped);
  useDarkPage();
  return (
    <main
      id="main"
      className="flex min-h-dvh flex-col gap-4 bg-slate-950 p-4 text-white lg:h-dvh lg:overflow-hidden lg:p-8"
    >
      <header className="flex items-start justify-between gap-4">
        <div>
          <p className="text-lg text-amber-300 lg:text-2xl">
            {[screen.organization_name, screen.event?.title].filter(Boolean).join(" · ")}
          </p>
          <h1 className="text-3xl font-bold lg:text-5xl">{screen.title}</h1>
        </div>
        <FullScreenButton />
      </header>
      {reconnecting && (
        <p role="status" className="rounded-md bg-amber-300 px-3 py-1 font-semibold text-slate-950">
          <Trans>Reconnecting… the figures will catch up by themselves.</Trans>
        </p>
      )}
      <div className="grid flex-1 gap-6 lg:min-h-0 lg:grid-cols-[1fr_1.3fr_0.9fr]">
        <Totals screen={screen} />
        <Feed entries={screen.entries} duringEvent={screen.event !== null} />
        <div className="flex flex-col gap-6">
          <HowToPledge id={id} screen={screen} />
          <ChampionsOnScreen campaignId={id} />
        </div>
      </div>
      {milestone && <Celebration milestone={milestone} />}
    </main>
  );
}

function Totals({ screen }: { screen: LiveScreen }) {
  const { t } = useLingui();
  const percent = screen.progress_percent;
  return (
    <section aria-labelledby="live-totals" className="flex gap-6">
      <h2 id="live-totals" className="sr-only">
        <Trans>Totals</Trans>
      </h2>
      <div
        role="progressbar"
        aria-label={t`Pledged towards the goal`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={t`${screen.progress_percent_uncapped}% of the goal pledged`}
        className="relative flex h-64 w-16 shrink-0 items-end overflow-hidden rounded-full border-4 border-white bg-slate-800 lg:h-auto lg:w-24"
      >
        <div
          className="w-full bg-green-400 transition-[height] duration-700"
          style={{ height: `${percent}%` }}
        />
      </div>
      <div className="flex flex-col justify-center gap-4 lg:gap-8">
        <dl>
          <Figure label={t`Pledged`} value={formatKsh(screen.pledged_total)} large />
        </dl>
        <p className="text-2xl font-semibold text-green-400 lg:text-4xl">
          <Trans>{screen.progress_percent_uncapped}% of the goal</Trans>
        </p>
        <dl className="flex flex-col gap-4 lg:gap-8">
          <Figure label={t`Goal`} value={formatKsh(screen.goal)} />
          {/* Every shilling in: pledge payments and gifts, the desk's cash too. */}
          <Figure label={t`Raised so far`} value={formatKsh(screen.raised_total)} />
          {screen.event && (
            <>
              <Figure label={t`Pledged tonight`} value={formatKsh(screen.event.pledged_total)} />
              <Figure label={t`Given tonight`} value={formatKsh(screen.event.given_total)} />
            </>
          )}
        </dl>
      </div>
    </section>
  );
}

function Figure({ label, value, large = false }: { label: string; value: string; large?: boolean }) {
  return (
    <div>
      <dt className="text-lg text-slate-300 lg:text-2xl">{label}</dt>
      <dd className={`font-bold tabular-nums ${large ? "text-5xl lg:text-7xl" : "text-3xl lg:text-5xl"}`}>
        {value}
      </dd>
    </div>
  );
}

function Feed({ entries, duringEvent }: { entries: LiveEntry[]; duringEvent: boolean }) {
  return (
    <section aria-labelledby="live-feed" className="flex min-h-0 flex-col">
      <h2 id="live-feed" className="mb-3 text-2xl font-semibold text-amber-300 lg:text-3xl">
        {duringEvent ? <Trans>Pledges and gifts tonight</Trans> : <Trans>Latest pledges and gifts</Trans>}
      </h2>
      {entries.length === 0 ? (
        <p className="text-xl text-slate-300 lg:text-2xl">
          <Trans>Be the first to pledge!</Trans>
        </p>
      ) : (
        <ol
          aria-live="polite"
          aria-relevant="additions"
          className="flex min-h-0 flex-col gap-2 overflow-hidden"
        >
          {entries.map((entry) => (
            <li
              key={entry.key}
              data-entry={entry.key}
              className="flex items-baseline justify-between gap-4 rounded-lg bg-slate-800 px-4 py-2 text-xl lg:text-3xl"
            >
              <span className="truncate">
                {entry.kind === "pledge" ? (
                  <Trans>{entry.name} pledged</Trans>
                ) : (
                  <Trans>{entry.name} gave</Trans>
                )}
              </span>
              <span className="font-bold tabular-nums text-green-400">{formatKsh(entry.amount)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function HowToPledge({ id, screen }: { id: number; screen: LiveScreen }) {
  const { t } = useLingui();
  const ussd = useUssdInfo();
  return (
    <section aria-labelledby="live-how" className="flex flex-col gap-4 text-lg lg:text-xl">
      <h2 id="live-how" className="text-2xl font-semibold text-amber-300 lg:text-3xl">
        <Trans>Pledge now</Trans>
      </h2>
      <div className="flex items-center gap-4">
        <img
          src={qrCodeUrl(id)}
          alt={t`QR code of the link to ${screen.title}`}
          width={160}
          height={160}
          className="h-32 w-32 rounded-md bg-white p-1 lg:h-40 lg:w-40"
        />
        <p>
          <Trans>Scan to pledge or give online</Trans>
        </p>
      </div>
      {ussd.data && (
        <p>
          <Trans>
            Dial <strong className="whitespace-nowrap text-amber-300">{ussd.data.service_code}</strong> and
            enter campaign number <strong className="text-amber-300">{id}</strong>
          </Trans>
        </p>
      )}
      {screen.payment_instructions.map((instruction) => (
        <div key={instruction.label}>
          <p className="font-semibold">{instruction.label}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3">
            {instruction.lines.map((line) => (
              <div key={line.label} className="contents">
                <dt className="text-slate-300">{line.label}</dt>
                <dd className="font-mono font-semibold">{line.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </section>
  );
}

/** The whole page dark while the screen shows, so a phone's overscroll never flashes white. */
function useDarkPage() {
  useEffect(() => {
    const root = document.documentElement;
    root.classList.add("bg-slate-950");
    return () => root.classList.remove("bg-slate-950");
  }, []);
}

/** The milestone to celebrate now: set when the pledged figure crosses one, gone after CELEBRATION_MS. */
function useCelebration(percent: number): Milestone | null {
  const before = useRef<number | undefined>(undefined);
  const [milestone, setMilestone] = useState<Milestone | null>(null);
  useEffect(() => {
    const crossed = milestoneCrossed(before.current, percent);
    before.current = percent;
    if (crossed) setMilestone(crossed);
  }, [percent]);
  useEffect(() => {
    if (!milestone) return;
    const timer = window.setTimeout(() => setMilestone(null), CELEBRATION_MS);
    return () => window.clearTimeout(timer);
  }, [milestone]);
  return milestone;
}

function Celebration({ milestone }: { milestone: Milestone }) {
  return (
    <div
      role="status"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-6 bg-green-900/95 p-8 text-center"
    >
      <p aria-hidden="true" className="text-8xl motion-safe:animate-bounce">
        🎉
      </p>
      <p className="text-5xl font-bold lg:text-8xl">
        {milestone === "goal" ? <Trans>We reached the goal!</Trans> : <Trans>Half-way there!</Trans>}
      </p>
      <p className="text-3xl lg:text-5xl">
        <Trans>Asante sana, thank you all!</Trans>
      </p>
    </div>
  );
}

/** For the laptop at the projector: the screen without the browser's bars (Esc leaves). */
function FullScreenButton() {
  const [fullScreen, setFullScreen] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const onChange = () => setFullScreen(document.fullscreenElement !== null);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);
  if (fullScreen || !document.fullscreenEnabled) return null;
  return (
    <button
      type="button"
      className="shrink-0 rounded-md border-2 border-white px-4 py-2 text-lg font-semibold hover:bg-white hover:text-slate-950 focus-visible:outline-4 focus-visible:outline-amber-300"
      onClick={() => void document.documentElement.requestFullscreen()}
    >
      <Trans>Full screen</Trans>
    </button>
  );
}
