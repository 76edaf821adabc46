import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { Disclosure } from "@/components/Disclosure";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { type Campaign, isNotFound, useCampaign } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId } from "@/features/campaigns/links";
import { IssuePasscode, PasscodeList } from "@/features/desk/DeskPasscodes";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime, kenyaMoment } from "@/lib/kenyaTime";
import { formatKsh } from "@/lib/money";
import {
  type CampaignEvent,
  type LiveEntry,
  useCreateEvent,
  useEventStep,
  useEvents,
  useHiddenEntries,
  useHideEntry,
  useLiveScreen,
  useUnhideEntry,
} from "./api";

// The roles that may take an entry off the big screen (organizations/roles.py MODERATE_LIVE_FEED).
const MODERATORS = new Set(["owner", "treasurer", "usher"]);
// The roles that see an event's cash count (SEE_PLEDGES; owners and treasurers also count it).
const CASH_READERS = new Set(["owner", "treasurer", "viewer"]);

/**
 * /campaign/{id}/events, for the campaign's team: its owners announce, open and close events; owners,
 * treasurers and ushers hide an entry from the big screen at once. The server enforces each of these.
 */
export default function EventsPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return <AppLayout>{id === null ? <CampaignNotFound /> : <EventsLoader id={id} />}</AppLayout>;
}

function EventsLoader({ id }: { id: number }) {
  const campaign = useCampaign(id);
  if (campaign.isError && isNotFound(campaign.error)) return <CampaignNotFound />;
  if (campaign.isError) {
    return <PageLoadError message={errorMessage(campaign.error)} retry={() => void campaign.refetch()} />;
  }
  if (!campaign.data) return <PageSkeleton />;
  return <EventsView campaign={campaign.data} />;
}

function EventsView({ campaign }: { campaign: Campaign }) {
  const canModerate = campaign.can_edit || MODERATORS.has(campaign.viewer_role ?? "");
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-8">
      <header className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">
          <Trans>Events of {campaign.title}</Trans>
        </h1>
        <p className="text-slate-700">
          <Trans>
            Open an event when the pledging starts: the big screen then shows the pledges and gifts made
            during it, from every channel, within seconds.
          </Trans>
        </p>
        <Link href={`/campaign/${campaign.id}/live`} className={`${primaryButton} sm:w-auto sm:self-start`}>
          <Trans>Open the big screen</Trans>
        </Link>
      </header>
      {campaign.can_edit && <AnnounceEvent campaignId={campaign.id} />}
      <EventList
        campaignId={campaign.id}
        canRun={campaign.can_edit}
        canSeeReports={campaign.can_see_pledges}
        canSeeCash={campaign.can_edit || CASH_READERS.has(campaign.viewer_role ?? "")}
      />
      {canModerate && campaign.status === "active" && <Moderation campaignId={campaign.id} />}
    </div>
  );
}

function AnnounceEvent({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  const create = useCreateEvent(campaignId);
  const [title, setTitle] = useState("");
  const [startsAt, setStartsAt] = useState("");
  const [endsAt, setEndsAt] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      ...(startsAt ? {} : { starts_at: t`Choose when it starts.` }),
      ...(endsAt ? {} : { ends_at: t`Choose when it ends.` }),
    };
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    try {
      await create.mutateAsync({
        title,
        starts_at: kenyaMoment(startsAt),
        ends_at: kenyaMoment(endsAt),
      });
      toast({ title: t`Event announced` });
      setTitle("");
      setStartsAt("");
      setEndsAt("");
    } catch (error) {
      if (error instanceof ApiRequestError && Object.keys(error.fieldErrors).length > 0) {
        setErrors(error.fieldErrors);
      } else {
        toast({ title: t`Error`, description: errorMessage(error), variant: "destructive" });
      }
    }
  };

  return (
    <section
      aria-labelledby="announce-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="announce-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Announce an event</Trans>
      </h2>
      <form className="mt-4 grid gap-4 sm:grid-cols-2" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          className="sm:col-span-2"
          label={t`Title`}
          value={title}
          maxLength={120}
          required
          error={errors.title}
          onChange={(event) => setTitle(event.target.value)}
        />
        <TextField
          type="datetime-local"
          label={t`Starts`}
          value={startsAt}
          required
          error={errors.starts_at}
          onChange={(event) => setStartsAt(event.target.value)}
        />
        <TextField
          type="datetime-local"
          label={t`Ends`}
          value={endsAt}
          required
          error={errors.ends_at}
          onChange={(event) => setEndsAt(event.target.value)}
        />
        <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={create.isPending}>
          <Trans>Announce</Trans>
        </button>
      </form>
    </section>
  );
}

function EventList({
  campaignId,
  canRun,
  canSeeReports,
  canSeeCash,
}: {
  campaignId: number;
  canRun: boolean;
  /** The night's report names its givers: for those who see Pledge Management. */
  canSeeReports: boolean;
  canSeeCash: boolean;
}) {
  const { t, i18n } = useLingui();
  const events = useEvents(campaignId);
  const step = useEventStep(campaignId);

  const run = async (event: CampaignEvent, action: "open" | "close") => {
    try {
      await step.mutateAsync({ eventId: event.id, step: action });
      toast({ title: action === "open" ? t`${event.title} is open` : t`${event.title} is closed` });
    } catch (error) {
      toast({ title: t`Error`, description: errorMessage(error), variant: "destructive" });
    }
  };

  return (
    <section aria-labelledby="events-heading">
      <h2 id="events-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Events</Trans>
      </h2>
      {events.isError && <p role="alert">{errorMessage(events.error)}</p>}
      {events.data?.length === 0 && (
        <p className="mt-2 text-slate-700">
          <Trans>No events yet.</Trans>
        </p>
      )}
      <ul className="mt-3 flex flex-col gap-3">
        {events.data?.map((event) => (
          <li key={event.id} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-semibold text-slate-900">{event.title}</p>
                <p className="text-sm text-slate-700">
                  {formatKenyaDateTime(event.starts_at, i18n.locale)} –{" "}
                  {formatKenyaDateTime(event.ends_at, i18n.locale)} · <EventStateLabel state={event.state} />
                </p>
              </div>
              {canRun && event.state === "scheduled" && (
                <button
                  type="button"
                  className={outlineButton}
                  disabled={step.isPending}
                  onClick={() => void run(event, "open")}
                >
                  <Trans>Open {event.title}</Trans>
                </button>
              )}
              {canRun && event.state === "open" && (
                <button
                  type="button"
                  className={outlineButton}
                  disabled={step.isPending}
                  onClick={() => void run(event, "close")}
                >
                  <Trans>Close {event.title}</Trans>
                </button>
              )}
            </div>
            {canSeeReports && event.state !== "scheduled" && (
              <Link
                href={`/campaign/${campaignId}/events/${event.id}/report`}
                className="text-sm font-medium text-brand-700 underline"
              >
                <Trans>Report of {event.title}</Trans>
              </Link>
            )}
            {canSeeCash && event.state !== "scheduled" && (
              <Link
                href={`/campaign/${campaignId}/events/${event.id}/cash`}
                className="text-sm font-medium text-brand-700 underline"
              >
                <Trans>Cash count of {event.title}</Trans>
              </Link>
            )}
            {canRun && (
              <Disclosure
                label={(open) =>
                  open ? (
                    <Trans>Hide the desk passcodes</Trans>
                  ) : (
                    <Trans>Desk passcodes of {event.title}</Trans>
                  )
                }
              >
                {() => (
                  <div className="mt-3 flex flex-col gap-4">
                    <PasscodeList eventId={event.id} />
                    {event.state !== "closed" && <IssuePasscode eventId={event.id} />}
                  </div>
                )}
              </Disclosure>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function EventStateLabel({ state }: { state: CampaignEvent["state"] }) {
  if (state === "open") return <Trans>Open now</Trans>;
  if (state === "closed") return <Trans>Closed</Trans>;
  return <Trans>Not opened yet</Trans>;
}

function Moderation({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  const live = useLiveScreen(campaignId);
  const hide = useHideEntry(campaignId);

  const onHide = async (entry: LiveEntry) => {
    try {
      await hide.mutateAsync(entry);
      toast({ title: t`Hidden from the big screen`, description: t`It still counts in the totals.` });
    } catch (error) {
      toast({ title: t`Error`, description: errorMessage(error), variant: "destructive" });
    }
  };

  return (
    <section aria-labelledby="moderation-heading">
      <h2 id="moderation-heading" className="text-lg font-semibold text-slate-900">
        <Trans>On the big screen now</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        <Trans>Hide a joke name or a mistake: it leaves every screen at once and stays in the books.</Trans>
      </p>
      {live.data?.entries.length === 0 && (
        <p className="mt-2 text-slate-700">
          <Trans>Nothing on the screen yet.</Trans>
        </p>
      )}
      <ul className="mt-3 flex flex-col gap-2">
        {live.data?.entries.map((entry) => (
          <li
            key={entry.key}
            className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-4 py-2"
          >
            <span>
              {entry.name} · {formatKsh(entry.amount)}
            </span>
            <button
              type="button"
              className={outlineButton}
              disabled={hide.isPending}
              aria-label={t`Hide ${entry.name}, ${formatKsh(entry.amount)}`}
              onClick={() => void onHide(entry)}
            >
              <Trans>Hide</Trans>
            </button>
          </li>
        ))}
      </ul>
      <HiddenEntries campaignId={campaignId} />
    </section>
  );
}

function HiddenEntries({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  const hidden = useHiddenEntries(campaignId);
  const unhide = useUnhideEntry(campaignId);

  const onUnhide = async (entry: LiveEntry) => {
    try {
      await unhide.mutateAsync(entry);
      toast({ title: t`Back on the big screen` });
    } catch (error) {
      toast({ title: t`Error`, description: errorMessage(error), variant: "destructive" });
    }
  };

  if (hidden.isError) return <p role="alert">{errorMessage(hidden.error)}</p>;
  if (!hidden.data?.length) return null;
  return (
    <>
      <h3 id="hidden-heading" className="mt-6 font-semibold text-slate-900">
        <Trans>Hidden from the big screen</Trans>
      </h3>
      <ul aria-labelledby="hidden-heading" className="mt-2 flex flex-col gap-2">
        {hidden.data.map((entry) => (
          <li
            key={entry.key}
            className="flex items-center justify-between gap-3 rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-2"
          >
            <span className="text-slate-700">
              {entry.name} · {formatKsh(entry.amount)}
            </span>
            <button
              type="button"
              className={outlineButton}
              disabled={unhide.isPending}
              aria-label={t`Show ${entry.name}, ${formatKsh(entry.amount)} again`}
              onClick={() => void onUnhide(entry)}
            >
              <Trans>Show again</Trans>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
