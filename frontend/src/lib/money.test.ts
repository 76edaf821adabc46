import { describe, expect, it } from "vitest";
import { formatKes, formatKsh } from "./money";

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

describe("formatKes", () => {
  it("uses the KES prefix of the dashboard", () => {
    expect(formatKes(1234500)).toBe("KES 1,234,500");
  });
});
