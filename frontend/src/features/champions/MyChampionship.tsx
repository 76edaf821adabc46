import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Link } from "wouter";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { CheckboxField, SelectField, TextAreaField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import type { Campaign } from "@/features/campaigns/api";
import { ApiRequestError, errorMessage, type User } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { type Leaderboards as Boards, useBecomeChampion, useMyChampion } from "./api";
import { ChampionLink } from "./ChampionLink";
import { type BecomeChampionValues, becomeChampionSchema, championRequest } from "./rules";

/** A signed-in member's championship of the campaign: their link, QR code, WhatsApp message and circle,
 * or 'Become a champion' while the campaign is open. */
export default function MyChampionship({
  campaign,
  boards,
  open,
  user,
}: {
  campaign: Campaign;
  boards: Boards;
  open: boolean;
  user: User;
}) {
  const mine = useMyChampion(campaign.id, true);
  const [becoming, setBecoming] = useState(false);
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
      defaultName={fullName(user)}
      teams={boards.overall.teams}
      onCancel={() => setBecoming(false)}
    />
  );
}

/** The member's name as their account has it (the server's ``User.full_name``). */
function fullName(user: User): string {
  return `${user.first_name} ${user.last_name}`.trim();
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
