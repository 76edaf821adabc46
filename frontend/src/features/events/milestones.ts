/** The big screen's celebrations: half-way and the goal, each when the pledged figure crosses it. */

export type Milestone = "half" | "goal";

/**
 * The milestone crossed between two readings of the pledged percentage (uncapped), if any: the goal
 * wins when one pledge crosses both. A screen opened after a milestone does not celebrate it again.
 */
export function milestoneCrossed(before: number | undefined, after: number): Milestone | null {
  if (before === undefined || after <= before) return null;
  if (before < 100 && after >= 100) return "goal";
  if (before < 50 && after >= 50) return "half";
  return null;
}
