/** Calendar dates as the pages show them: shared by every feature (no feature imports another for them). */

// The months as Intl.DateTimeFormat's "medium" date names them in each language (links.test.ts holds
// them equal). Not Intl itself: the first formatter a page builds costs a phone tens of milliseconds
// (lib/numbers.ts) while it hydrates a server-rendered page, and the renderer's ICU (Node's) and an old
// phone's may disagree on a name ('Sep', 'Sept'), which would be a hydration mismatch.
const MONTHS = {
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  sw: ["Jan", "Feb", "Mac", "Apr", "Mei", "Jun", "Jul", "Ago", "Sep", "Okt", "Nov", "Des"],
};

/** An ISO calendar date ('2026-03-01') in the reader's language ('Mar 1, 2026', '1 Mac 2026'), without
 * shifting it by time zone. */
export function formatCalendarDate(isoDate: string, locale: string): string {
  const [year, month, day] = isoDate.split("-").map(Number) as [number, number, number];
  if (locale === "sw") return `${day} ${MONTHS.sw[month - 1]} ${year}`;
  return `${MONTHS.en[month - 1]} ${day}, ${year}`;
}

/** Today in the browser, as an <input type="date"> value. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
