/** A moment (ISO date-time) as a day in the reader's language and time zone: '3 Mar 2026'. */
export function formatDay(isoDateTime: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date(isoDateTime));
}
