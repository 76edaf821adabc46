/** Whole Kenyan shillings, the only way money is shown: `Ksh 12,500`. */

// Intl.NumberFormat is not used for the thousands: a page's first formatter costs a phone's browser
// tens of milliseconds (its number and date data, measured 20-60 ms on this machine's Chromium, four
// times that on a low-cost phone), in the middle of hydrating a server-rendered page. The grouping
// of en-KE is plain (every three digits, commas), and money.test.ts holds it equal to Intl's.
function grouped(amount: number): string {
  const whole = Math.round(amount);
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+$)/g, ",");
  return whole < 0 ? `-${digits}` : digits;
}

// The same in either language: Kiswahili's compact form mixes 'elfu 250' with '1.5M'. Made at its
// first use (charts), not by every page that imports this module.
let compact: Intl.NumberFormat | undefined;

export function formatKsh(amount: number): string {
  return `Ksh ${grouped(amount)}`;
}

/** Short money where space is tight (a chart's axis): 'Ksh 250K', 'Ksh 1.5M'. */
export function formatKshCompact(amount: number): string {
  compact ??= new Intl.NumberFormat("en-KE", { notation: "compact", maximumFractionDigits: 1 });
  return `Ksh ${compact.format(amount)}`;
}

/** The dashboard's 'KES 1,234,500' style. */
export function formatKes(amount: number): string {
  return `KES ${grouped(amount)}`;
}
