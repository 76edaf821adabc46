import { describe, expect, it } from "vitest";
import { reminderOffsetLabel } from "./reminders";

describe("reminderOffsetLabel", () => {
  it("names offsets after pledging and before or on the end date", () => {
    expect(["pledge+1", "pledge+7", "end-1", "end-3", "end-0"].map(reminderOffsetLabel)).toEqual([
      "1 day after pledging",
      "7 days after pledging",
      "1 day before the end date",
      "3 days before the end date",
      "On the end date",
    ]);
  });

  it("shows an offset it cannot read as it is", () => {
    expect(reminderOffsetLabel("weekly")).toBe("weekly");
  });
});
