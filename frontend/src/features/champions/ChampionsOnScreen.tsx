import { Trans } from "@lingui/react/macro";
import { useLeaderboards } from "./api";
import { BoardLists } from "./Leaderboards";

// The boards change with each gift through a champion; the big screen asks for them far less often
// than for its totals (the server keeps one answer per campaign version).
const BOARD_REFRESH_MS = 15_000;

/** The big screen's top champions and teams tonight; nothing on a night without gifts through them. */
export function ChampionsOnScreen({ campaignId }: { campaignId: number }) {
  const boards = useLeaderboards(campaignId, BOARD_REFRESH_MS);
  const tonight = boards.data?.tonight;
  if (!tonight || (tonight.champions.length === 0 && tonight.teams.length === 0)) return null;
  return (
    <section aria-labelledby="live-champions">
      <h2 id="live-champions" className="text-2xl font-semibold text-amber-300 lg:text-3xl">
        <Trans>Champions tonight</Trans>
      </h2>
      <BoardLists board={tonight} large />
    </section>
  );
}
