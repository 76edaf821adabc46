// Whole Kenyan shillings, the only way money is shown: `Ksh 12,500` (grouped without Intl: numbers.ts).
import { formatWholeNumber } from "./numbers";

// The same in either language: Kiswahili's compact form mixes 'elfu 250' with '1.5M'. Made at its
// first use (charts), not by every page that imports this module.
let compact: Intl.NumberFormat | undefined;

export function formatKsh(amount: number): string {
  return `Ksh ${formatWholeNumber(amount)}`;
}

/** Short money where space is tight (a chart's axis): 'Ksh 250K', 'Ksh 1.5M'. */
export function formatKshCompact(amount: number): string {
  compact ??= new Intl.NumberFormat("en-KE", { notation: "compact", maximumFractionDigits: 1 });
  return `Ksh ${compact.format(amount)}`;
}

/** The dashboard's 'KES 1,234,500' style. */
export function formatKes(amount: number): string {
  return `KES ${formatWholeNumber(amount)}`;
}
