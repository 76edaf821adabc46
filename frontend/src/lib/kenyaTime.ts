/** Kenya keeps East Africa Time, UTC+3, all year (no daylight saving): its dates need no time-zone data. */
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

/** The calendar date in Kenya at a moment: '2026-03-02' for 2026-03-01T22:30:00Z. */
export function kenyaDate(moment: Date | string): string {
  return new Date(new Date(moment).getTime() + EAT_OFFSET_MS).toISOString().slice(0, 10);
}
