import { Trans } from "@lingui/react/macro";
import { formatWholeNumber } from "@/lib/numbers";

/** "35 days left" on the campaign's page and its pledge page, both rendered by the server and hydrated.
 *
 * Not Lingui's <Plural>: it builds Intl.PluralRules and Intl.NumberFormat (for its '#') while the page
 * hydrates, the first Intl objects of the page, measured at 14-36 ms on this machine's Chromium (a
 * blocking task of 56-144 ms for Lighthouse's phone, four times slower). English and Kiswahili have the
 * same two plural forms (CLDR: 'one' for exactly 1, 'other' for every other whole number), so the
 * choice is `days === 1`. */
export function DaysLeft({ days }: { days: number }) {
  if (days === 1) return <Trans>1 day left</Trans>;
  const count = formatWholeNumber(days);
  return <Trans>{count} days left</Trans>;
}
