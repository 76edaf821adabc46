import { Trans, useLingui } from "@lingui/react/macro";
import { lazy, Suspense, useState } from "react";
import { Link } from "wouter";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { CheckboxField, SelectField, TextAreaField } from "@/components/FieldControls";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import type { Campaign } from "@/features/campaigns/api";
import { ApiRequestError, errorMessage, type User } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { useSession } from "@/lib/session";
import { type Leaderboards as Boards, useBecomeChampion, useLeaderboards, useMyChampion } from "./api";
import { ChampionLink } from "./ChampionLink";
import { Leaderboards } from "./Leaderboards";
import { type BecomeChampionValues, becomeChampionSchema, championRequest } from "./rules";

// The team's list of champions, teams and cards loads only for the team.
const ChampionsPanel = lazy(() =>
  import("./ChampionsPanel").then((module) => ({ default: module.ChampionsPanel })),
);

/**
 * The campaign page's champions: the leaderboards, 'Become a champion' for a signed-in member (then
 * their link, QR code and WhatsApp message), a link to their own circle, and for the campaign's team
 * (`team`) the list of champions and teams, the cards to print and a returned card.
 */
export function ChampionsSection({ campaign, team }: { campaign: Campaign; team: boolean }) {
  const boards = useLeaderboards(campaign.id);
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
        <MyChampionship campaign={campaign} boards={boards.data} open={open} />
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

function MyChampionship({ campaign, boards, open }: { campaign: Campaign; boards: Boards; open: boolean }) {
  const session = useSession();
  const signedIn = Boolean(session.data?.user);
  const mine = useMyChampion(campaign.id, signedIn);
  const [becoming, setBecoming] = useState(false);
  if (!session.isSuccess) return null;
  if (!signedIn) {
    if (!open) return null;
    return (
      <Link href={`/signin?next=${encodeURIComponent(`/campaign/${campaign.id}`)}`} className={outlineButton}>
        <Trans>Sign in to become a champion</Trans>
      </Link>
    );
  }
  if (mine.data) {
    return (
      <div className="space-y-3 rounded-lg bg-brand-50 p-4">
        <h3 className="font-semibold text-slate-900">
          <Trans>You are a champion of this campaign</Trans>
        </h3>
        <ChampionLink campaignId={campaign.id} campaignTitle={campaign.title} champion={mine.data} />
        <Link href={`/campaign/${campaign.id}/champions/${mine.data.code}`} className={outlineButton}>
          <Trans>See who gave through you</Trans>
        </Link>
      </div>
    );
  }
  if (mine.data !== null || !open) return null;
  if (!becoming) {
    return (
      <button type="button" className={`${primaryButton} sm:w-auto`} onClick={() => setBecoming(true)}>
        <Trans>Become a champion</Trans>
      </button>
    );
  }
  return (
    <BecomeChampionForm
      campaignId={campaign.id}
      defaultName={fullName(session.data?.user)}
      teams={boards.overall.teams}
      onCancel={() => setBecoming(false)}
    />
  );
}

/** The member's name as their account has it (the server's ``User.full_name``). */
function fullName(user: User | null | undefined): string {
  return user ? `${user.first_name} ${user.last_name}`.trim() : "";
}

const FIELDS = ["name", "appeal", "goal", "teamId", "onLeaderboard"] as const;

function BecomeChampionForm({
  campaignId,
  defaultName,
  teams,
  onCancel,
}: {
  campaignId: number;
  defaultName: string;
  teams: Boards["overall"]["teams"];
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const form = useSchemaForm(becomeChampionSchema, {
    name: defaultName,
    appeal: "",
    goal: "",
    teamId: "",
    onLeaderboard: true,
  });
  const { errors } = form.formState;
  const become = useBecomeChampion(campaignId);
  const onSubmit = (values: BecomeChampionValues) =>
    become.mutate(championRequest(values), { onError: (error) => void showFieldErrors(error, form, FIELDS) });
  const failure =
    become.error && !(become.error instanceof ApiRequestError && Object.keys(become.error.fieldErrors).length)
      ? errorMessage(become.error)
      : null;
  return (
    <form
      noValidate
      aria-label={t`Become a champion`}
      className="space-y-4 rounded-lg border border-slate-200 p-4"
      onSubmit={form.handleSubmit(onSubmit)}
    >
      <TextField
        label={t`Your name, as your page shows it`}
        error={errors.name?.message}
        {...form.register("name")}
      />
      <TextAreaField
        label={t`Your appeal`}
        hint={<Trans>A few words to your circle: why you give and raise for this campaign.</Trans>}
        rows={3}
        error={errors.appeal?.message}
        {...form.register("appeal")}
      />
      <TextField
        label={t`Your goal (Ksh)`}
        inputMode="numeric"
        autoComplete="off"
        error={errors.goal?.message}
        {...form.register("goal")}
      />
      {teams.length > 0 && (
        <SelectField label={t`Team (optional)`} error={errors.teamId?.message} {...form.register("teamId")}>
          <option value="">{t`No team`}</option>
          {teams.map((teamOption) => (
            <option key={teamOption.id} value={teamOption.id}>
              {teamOption.name}
            </option>
          ))}
        </SelectField>
      )}
      <CheckboxField
        label={<Trans>Show my name on the leaderboards</Trans>}
        note={<Trans>Off: what your circle gives still counts, but your name is not shown.</Trans>}
        {...form.register("onLeaderboard")}
      />
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={become.isPending} className={`${primaryButton} sm:w-auto`}>
          {become.isPending ? <Trans>Saving...</Trans> : <Trans>Become a champion</Trans>}
        </button>
        <button type="button" className={outlineButton} onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}
