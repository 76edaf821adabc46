import { formatCalendarDate } from "@/features/campaigns/links";
import { kenyaDate } from "@/lib/kenyaTime";

/** A moment (ISO date-time) as a day in the reader's language, in Kenya's time: 'Mar 3, 2026', '3 Mac
 * 2026'. The same day in the server's render of a page and in any browser, wherever it is. */
export function formatDay(isoDateTime: string, locale: string): string {
  return formatCalendarDate(kenyaDate(isoDateTime), locale);
}
