/** Whole Kenyan shillings, the only way money is shown: `Ksh 12,500`. */
const grouping = new Intl.NumberFormat("en-KE", { maximumFractionDigits: 0 });
// The same in either language: Kiswahili's compact form mixes 'elfu 250' with '1.5M'.
const compact = new Intl.NumberFormat("en-KE", { notation: "compact", maximumFractionDigits: 1 });

export function formatKsh(amount: number): string {
  return `Ksh ${grouping.format(Math.round(amount))}`;
}

/** Short money where space is tight (a chart's axis): 'Ksh 250K', 'Ksh 1.5M'. */
export function formatKshCompact(amount: number): string {
  return `Ksh ${compact.format(amount)}`;
}

/** The dashboard's 'KES 1,234,500' style. */
export function formatKes(amount: number): string {
  return `KES ${grouping.format(Math.round(amount))}`;
}
