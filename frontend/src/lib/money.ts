/** Whole Kenyan shillings, the only way money is shown: `Ksh 12,500`. */
const grouping = new Intl.NumberFormat("en-KE", { maximumFractionDigits: 0 });

export function formatKsh(amount: number): string {
  return `Ksh ${grouping.format(Math.round(amount))}`;
}

/** The dashboard's 'KES 1,234,500' style. */
export function formatKes(amount: number): string {
  return `KES ${grouping.format(Math.round(amount))}`;
}
