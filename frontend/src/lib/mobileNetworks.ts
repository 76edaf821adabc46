/**
 * Whether a Kenyan number is in one of Airtel Kenya's prefixes, to preselect Airtel Money for it (a
 * default the payer can change: a ported number keeps its prefix). The same rule as the server's
 * backend/common/mobile_networks.py: 0730-0739, 0750-0756, 0762, 0780-0789, 0100-0102.
 */
const AIRTEL = /^(?:73\d|75[0-6]|762|78\d|10[0-2])/;

export function isAirtelNumber(phone: string): boolean {
  const match = /^(?:\+?254|0)?([17]\d{8})$/.exec(phone.replace(/[\s\-()]/g, ""));
  return match !== null && AIRTEL.test(match[1] ?? "");
}
