// The grants are in US dollars (spec section 9): whole dollars, like '$25,000'.
const dollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});

export function formatUsd(amount: number): string {
  return dollars.format(Math.round(amount));
}

/** A calendar date from the API ('2027-02-15'), shown without any time-zone shift: '15 Feb 2027'. */
export function formatDate(isoDate: string, locale = "en-KE"): string {
  const [year = 1970, month = 1, day = 1] = isoDate.split("-").map(Number);
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric" }).format(
    new Date(year, month - 1, day),
  );
}
