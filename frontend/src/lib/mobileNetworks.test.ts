import { describe, expect, it } from "vitest";
import { isAirtelNumber } from "./mobileNetworks";

describe("isAirtelNumber", () => {
  it("knows Airtel Kenya's prefixes however the number is written", () => {
    for (const phone of ["0733 123 456", "+254750123456", "254762123456", "0789123456", "0101123456"]) {
      expect(isAirtelNumber(phone), phone).toBe(true);
    }
  });

  it("leaves Safaricom, Telkom and foreign numbers to M-Pesa", () => {
    for (const phone of ["0712345678", "0757123456", "0770123456", "0110123456", "+255733123456", ""]) {
      expect(isAirtelNumber(phone), phone).toBe(false);
    }
  });
});
