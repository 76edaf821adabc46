import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { formatKsh } from "@/lib/money";
import type { Board, Leaderboards as Boards } from "./api";

/**
 * The top champions and teams, tonight or overall, as the server sends them: under the public-figure
 * rule, and without the champions who asked to stay off the board (the server leaves them out).
 * `large`: the big screen's size.
 */
export function Leaderboards({ boards, large = false }: { boards: Boards; large?: boolean }) {
  const [tonight, setTonight] = useState(
    boards.tonight.champions.length > 0 || boards.tonight.teams.length > 0,
  );
  const board = tonight ? boards.tonight : boards.overall;
  const tab = (selected: boolean) =>
    `rounded-full px-3 py-1 text-sm font-medium ${
      selected ? "bg-brand-700 text-white" : "border border-slate-300 text-slate-700 hover:border-brand-600"
    }`;
  return (
    <div>
      <fieldset className="flex gap-2">
        <legend className="sr-only">
          <Trans>Which leaderboard</Trans>
        </legend>
        <button
          type="button"
          aria-pressed={tonight}
          className={tab(tonight)}
          onClick={() => setTonight(true)}
        >
          <Trans>Tonight</Trans>
        </button>
        <button
          type="button"
          aria-pressed={!tonight}
          className={tab(!tonight)}
          onClick={() => setTonight(false)}
        >
          <Trans>Overall</Trans>
        </button>
      </fieldset>
      <BoardLists board={board} large={large} />
    </div>
  );
}

/** One board: its champions and its teams, each ranked by what they raised. */
export function BoardLists({ board, large = false }: { board: Board; large?: boolean }) {
  const size = large ? "text-2xl" : "text-sm";
  // The big screen is dark: its quieter text is light.
  const muted = large ? "text-slate-300" : "text-slate-600";
  if (board.champions.length === 0 && board.teams.length === 0) {
    return (
      <p className={`mt-3 ${muted} ${size}`}>
        <Trans>No gifts through champions yet.</Trans>
      </p>
    );
  }
  return (
    <div className="mt-3 grid gap-4 sm:grid-cols-2">
      {board.champions.length > 0 && (
        <div>
          <h3 className={`font-semibold ${large ? "text-3xl" : "text-base"}`}>
            <Trans>Top champions</Trans>
          </h3>
          <ol className={`mt-2 space-y-1 ${size}`}>
            {board.champions.map((champion, index) => (
              <li key={champion.code} className="flex justify-between gap-3">
                <span>
                  {index + 1}. {champion.name}
                  {champion.team && <span className={muted}> · {champion.team}</span>}
                </span>
                <Figures raised={champion.raised} pledged={champion.pledged} muted={muted} />
              </li>
            ))}
          </ol>
        </div>
      )}
      {board.teams.length > 0 && (
        <div>
          <h3 className={`font-semibold ${large ? "text-3xl" : "text-base"}`}>
            <Trans>Top teams</Trans>
          </h3>
          <ol className={`mt-2 space-y-1 ${size}`}>
            {board.teams.map((team, index) => (
              <li key={team.id} className="flex justify-between gap-3">
                <span>
                  {index + 1}. {team.name}
                </span>
                <Figures raised={team.raised} pledged={team.pledged} muted={muted} />
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

/** What a champion or team raised, and beside it what is pledged and not yet paid in, when any. */
function Figures({ raised, pledged, muted }: { raised: number; pledged: number; muted: string }) {
  const promised = formatKsh(pledged);
  return (
    <span className="text-right whitespace-nowrap">
      <span className="font-semibold">{formatKsh(raised)}</span>
      {pledged > 0 && (
        <span className={`block text-xs ${muted}`}>
          <Trans>{promised} pledged</Trans>
        </span>
      )}
    </span>
  );
}
