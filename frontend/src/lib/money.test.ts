import { describe, expect, it } from "vitest";
import { formatKes, formatKsh, formatKshCompact } from "./money";

describe("formatKsh", () => {
  it("shows whole shillings with thousands separators", () => {
    expect(formatKsh(12500)).toBe("Ksh 12,500");
    expect(formatKsh(1234500)).toBe("Ksh 1,234,500");
    expect(formatKsh(0)).toBe("Ksh 0");
  });

  it("never shows decimals", () => {
    expect(formatKsh(99.6)).toBe("Ksh 100");
  });
});

describe("formatKshCompact", () => {
  it("shortens thousands and millions with one decimal at most", () => {
    expect(formatKshCompact(250_000)).toBe("Ksh 250K");
    expect(formatKshCompact(1_500_000)).toBe("Ksh 1.5M");
    expect(formatKshCompact(1_234_567)).toBe("Ksh 1.2M");
    expect(formatKshCompact(900)).toBe("Ksh 900");
    expect(formatKshCompact(0)).toBe("Ksh 0");
  });
});

describe("formatKes", () => {
  it("uses the KES prefix of the dashboard", () => {
    expect(formatKes(1234500)).toBe("KES 1,234,500");
  });
});
