import { describe, expect, it } from "vitest";
import { milestoneCrossed } from "./milestones";

describe("milestoneCrossed", () => {
  it.each([
    [undefined, 60, null], // the screen just opened
    [40, 49, null],
    [49, 50, "half"],
    [30, 75, "half"],
    [99, 100, "goal"],
    [40, 120, "goal"], // one big pledge crosses both: the goal
    [100, 130, null],
    [60, 55, null], // a correction lowered it
  ] as const)("from %s%% to %s%%: %s", (before, after, expected) => {
    expect(milestoneCrossed(before, after)).toBe(expected);
  });
});
