import { describe, expect, it } from "vitest";
import { formatWholeNumber } from "./numbers";

describe("formatWholeNumber", () => {
  it("groups thousands as Intl.NumberFormat does in English and Kiswahili, without building one", () => {
    for (const locale of ["en-KE", "sw-KE"]) {
      const intl = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
      for (const value of [
        0, 1, 12, 999, 1000, 9999, 10_000, 123_456, 1_000_000, 1_000_000_000, 987_654_321_012, -5, -1234,
        -12.4,
      ]) {
        expect(formatWholeNumber(value)).toBe(intl.format(value));
      }
    }
  });

  it("rounds to a whole number", () => {
    expect(formatWholeNumber(1234.6)).toBe("1,235");
  });
});
