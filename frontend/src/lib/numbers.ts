// Intl.NumberFormat is not used for the thousands: a page's first formatter costs a phone's browser
// tens of milliseconds (its number and date data, measured 20-60 ms on this machine's Chromium, four
// times that on a low-cost phone), in the middle of hydrating a server-rendered page. The grouping
// of en-KE and sw-KE is plain (every three digits, commas), and numbers.test.ts holds it equal to Intl's.

/** A whole number with its thousands grouped: `1,234,500`. */
export function formatWholeNumber(value: number): string {
  const whole = Math.round(value);
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+$)/g, ",");
  return whole < 0 ? `-${digits}` : digits;
}
