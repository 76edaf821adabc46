import { msg } from "@lingui/core/macro";
import * as v from "valibot";
import { parseWholeKes, say, wholeKes } from "@/features/pledges/rules";
import type { ChampionIn } from "./api";

// The same rules as backend/champions/services.py and models.py (APPEAL_MAX_LENGTH, NAME_MAX_LENGTH).
const APPEAL_MAX_LENGTH = 500;
const NAME_MAX_LENGTH = 150;

export const becomeChampionSchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(NAME_MAX_LENGTH, say(msg`Please keep the name under 150 characters.`)),
  ),
  appeal: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(APPEAL_MAX_LENGTH, say(msg`Please keep your appeal under 500 characters.`)),
  ),
  goal: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(say(msg`Please enter your goal.`)),
    wholeKes(msg`Please enter a whole amount of at least Ksh 1`),
  ),
  teamId: v.string(),
  onLeaderboard: v.boolean(),
});

export type BecomeChampionValues = v.InferInput<typeof becomeChampionSchema>;

/** The form's values as the API takes them: whole KES, no team unless one was chosen. */
export function championRequest(values: BecomeChampionValues): ChampionIn {
  return {
    name: values.name.trim(),
    phone: "",
    for_someone_else: false,
    appeal: values.appeal.trim(),
    goal: parseWholeKes(values.goal) ?? 0,
    team_id: values.teamId ? Number(values.teamId) : null,
    on_leaderboard: values.onLeaderboard,
  };
}

/** A WhatsApp message inviting the champion's circle to their page. */
export function whatsappShareUrl(message: string, pageUrl: string): string {
  return `https://wa.me/?text=${encodeURIComponent(`${message} ${pageUrl}`)}`;
}

/** How far the champion is towards their own goal, in whole percent (0 without a goal). */
export function goalPercent(raised: number, goal: number): number {
  return goal > 0 ? Math.floor((raised * 100) / goal) : 0;
}
