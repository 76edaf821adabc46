/** A moment (ISO date-time) as a day in the reader's language, in Kenya's time: '3 Mar 2026'. The
 * same day in the server's render of a page and in any browser, wherever it is. */
export function formatDay(isoDateTime: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "Africa/Nairobi" }).format(
    new Date(isoDateTime),
  );
}
