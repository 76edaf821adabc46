import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useState } from "react";
import { Link } from "wouter";
import { outlineButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { parseWholeKes } from "@/features/pledges/rules";
import { errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import { harambeeCardsUrl, type Roster, useCreateTeam, useRoster, useSetOnLeaderboard } from "./api";
import { CardReturnForm } from "./CardReturnForm";

/**
 * The team's side of champions: every champion (on the board or not) with their totals and card, the
 * teams with theirs; for those who manage pledges (`canAct`) a new team, a champion on or off the board,
 * the cards to print and a card brought back.
 */
export function ChampionsPanel({ campaignId, canAct }: { campaignId: number; canAct: boolean }) {
  const roster = useRoster(campaignId);
  if (roster.isError)
    return <PageLoadError message={errorMessage(roster.error)} retry={() => void roster.refetch()} />;
  if (!roster.data) return <LoadingPlaceholder className="h-40 rounded-lg bg-slate-100" />;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-semibold text-slate-900">
          <Trans>The campaign's champions and teams</Trans>
        </h3>
        {canAct && roster.data.champions.length > 0 && (
          <a href={harambeeCardsUrl(campaignId)} className={outlineButton} download>
            <Trans>Print harambee cards</Trans>
          </a>
        )}
      </div>
      <Teams roster={roster.data} />
      {canAct && <NewTeamForm campaignId={campaignId} />}
      <ChampionsTable campaignId={campaignId} roster={roster.data} canAct={canAct} />
      {canAct && roster.data.champions.length > 0 && <CardReturnForm campaignId={campaignId} />}
    </div>
  );
}

function Teams({ roster }: { roster: Roster }) {
  const { t } = useLingui();
  if (roster.teams.length === 0) return null;
  return (
    <RosterTable caption={t`Teams`} columns={[t`Team`, t`Champions`, t`Raised`, t`Pledged`, t`Goal`]}>
      {roster.teams.map((team) => (
        <tr key={team.id} className="border-t border-slate-100">
          <th scope="row" className="py-1 pr-3 font-medium">
            {team.name}
          </th>
          <td className="py-1 pr-3">{team.champions}</td>
          <td className="py-1 pr-3">{formatKsh(team.raised)}</td>
          <td className="py-1 pr-3">{formatKsh(team.pledged)}</td>
          <td className="py-1">{team.goal ? formatKsh(team.goal) : "—"}</td>
        </tr>
      ))}
    </RosterTable>
  );
}

function NewTeamForm({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  const [name, setName] = useState("");
  const [goal, setGoal] = useState("");
  const create = useCreateTeam(campaignId);
  const goalError =
    goal.trim() && parseWholeKes(goal) === null ? t`Please enter a whole amount of at least Ksh 1` : "";
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || goalError) return;
    create.mutate(
      { name: name.trim(), goal: parseWholeKes(goal) ?? 0 },
      {
        onSuccess: (team) => {
          toast({ title: t`Team ${team.name} added.` });
          setName("");
          setGoal("");
        },
      },
    );
  };
  return (
    <form
      noValidate
      aria-label={t`Add a team`}
      onSubmit={onSubmit}
      className="grid gap-3 rounded-lg border border-slate-200 p-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
    >
      <TextField
        label={t`New team (a fellowship, the choir, a jumuiya)`}
        maxLength={80}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={create.error ? errorMessage(create.error) : undefined}
      />
      <TextField
        label={t`Team goal (Ksh, optional)`}
        inputMode="numeric"
        value={goal}
        onChange={(event) => setGoal(event.target.value)}
        error={goalError || undefined}
      />
      <button type="submit" className={outlineButton} disabled={create.isPending || !name.trim()}>
        <Trans>Add team</Trans>
      </button>
    </form>
  );
}

function ChampionsTable({
  campaignId,
  roster,
  canAct,
}: {
  campaignId: number;
  roster: Roster;
  canAct: boolean;
}) {
  const { t } = useLingui();
  const setOnBoard = useSetOnLeaderboard(campaignId);
  if (roster.champions.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        <Trans>No champions yet. Members become champions from this page.</Trans>
      </p>
    );
  }
  const teamName = new Map(roster.teams.map((team) => [team.id, team.name]));
  return (
    <RosterTable
      caption={t`Champions`}
      columns={[t`Champion`, t`Card`, t`Raised`, t`Pledged`, t`Goal`, t`On the board`]}
    >
      {roster.champions.map((champion) => (
        <tr key={champion.code} className="border-t border-slate-100">
          <th scope="row" className="py-1 pr-3 font-medium">
            <Link
              href={`/campaign/${campaignId}/champions/${champion.code}`}
              className="text-brand-700 hover:underline"
            >
              {champion.name}
            </Link>
            {champion.team_id !== null && (
              <span className="block text-xs font-normal text-slate-600">
                {teamName.get(champion.team_id)}
              </span>
            )}
          </th>
          <td className="py-1 pr-3">
            {champion.card_number}
            {champion.card_returned && (
              <span className="block text-xs text-slate-600">
                <Trans>returned</Trans>
              </span>
            )}
          </td>
          <td className="py-1 pr-3">{formatKsh(champion.raised)}</td>
          <td className="py-1 pr-3">{formatKsh(champion.pledged)}</td>
          <td className="py-1 pr-3">{formatKsh(champion.goal)}</td>
          <td className="py-1">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-700"
              aria-label={t`${champion.name} on the leaderboards`}
              checked={champion.on_leaderboard}
              disabled={!canAct || setOnBoard.isPending}
              onChange={(event) =>
                setOnBoard.mutate(
                  { code: champion.code, onLeaderboard: event.target.checked },
                  { onError: (error) => toast({ title: errorMessage(error), variant: "destructive" }) },
                )
              }
            />
          </td>
        </tr>
      ))}
    </RosterTable>
  );
}

/** A table of the roster: its caption, its column headings, and the rows given as children. */
function RosterTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: string[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="text-left font-medium text-slate-800">{caption}</caption>
        <thead className="text-slate-600">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="py-1 pr-3">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
