import { describe, expect, it } from "vitest";
import { leadingZeroBits, solve } from "./pow";

describe("the proof of work", () => {
  it("counts the zero bits a digest starts with", () => {
    expect(leadingZeroBits(new Uint8Array([0, 0, 0b00011111, 255]))).toBe(19);
    expect(leadingZeroBits(new Uint8Array([0b10000000]))).toBe(0);
    expect(leadingZeroBits(new Uint8Array([0, 0]))).toBe(16);
  });

  it("finds the same first nonce as the server's check (backend/common/challenges.py)", async () => {
    // Worked out in Python with hashlib for this token.
    expect(await solve("harambee-test-token", 8)).toBe(112);
    expect(await solve("harambee-test-token", 12)).toBe(203);
  });
});
