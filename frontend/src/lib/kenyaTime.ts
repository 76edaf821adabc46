/** Kenya keeps East Africa Time, UTC+3, all year (no daylight saving): its dates need no time-zone data. */
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

/** The calendar date in Kenya at a moment: '2026-03-02' for 2026-03-01T22:30:00Z. */
export function kenyaDate(moment: Date | string): string {
  return new Date(new Date(moment).getTime() + EAT_OFFSET_MS).toISOString().slice(0, 10);
}

// A formatter per language and style, made once: building one costs far more than using it, and lists
// (a ledger, an event's report) format a time per row.
const formatters = new Map<string, Intl.DateTimeFormat>();

function inKenya(moment: Date | string, locale: string, options: Intl.DateTimeFormatOptions): string {
  const key = `${locale} ${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    formatters.set(key, formatter);
  }
  // Kenya's wall clock is UTC's three hours on: formatted as UTC, whatever zone the device is set to.
  return formatter.format(new Date(new Date(moment).getTime() + EAT_OFFSET_MS));
}

/** A moment as Kenya's day and time in the reader's language, as the books keep it wherever the reader
 * is: 'Mar 2, 2026, 1:30 AM', '2 Mac 2026, 01:30' for 2026-03-01T22:30:00Z. */
export function formatKenyaDateTime(moment: Date | string, locale: string): string {
  return inKenya(moment, locale, { dateStyle: "medium", timeStyle: "short" });
}

/** Only the time of day in Kenya: '1:30 AM', '01:30'. */
export function formatKenyaTime(moment: Date | string, locale: string): string {
  return inKenya(moment, locale, { timeStyle: "short" });
}

/** What a datetime-local field holds ('2026-12-06T10:00'), read as Kenya's wall clock: that moment, as ISO
 * ('2026-12-06T07:00:00.000Z'), whatever zone the device is set to. */
export function kenyaMoment(wallClock: string): string {
  return new Date(Date.parse(`${wallClock}Z`) - EAT_OFFSET_MS).toISOString();
}
