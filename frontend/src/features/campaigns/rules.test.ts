import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { campaignEditSchemaFor, todayIso } from "./rules";

const SAVED_END_DATE = "2026-01-31";
const campaignEditSchema = campaignEditSchemaFor(SAVED_END_DATE);

const valid = {
  title: "Borehole",
  description: "Water for Kathonzweni",
  goal: "1200000",
  largestPledge: "1200000",
  unsignedPledgesCountAfterPayment: false,
  instalmentsPastEnd: false,
  mayBeFeatured: false,
  endDate: SAVED_END_DATE,
  imageUrl: "",
  youtubeUrl: "",
};

function errorsOf(values: Partial<typeof valid>): Record<string, string> {
  const result = v.safeParse(campaignEditSchema, { ...valid, ...values }, { abortPipeEarly: true });
  return Object.fromEntries((result.issues ?? []).map((issue) => [v.getDotPath(issue) ?? "", issue.message]));
}

describe("campaignEditSchema", () => {
  it("accepts a complete form without media", () => {
    expect(errorsOf({})).toEqual({});
  });

  it("moves the end date to today or later, or keeps the saved one even once it is past", () => {
    expect(errorsOf({ endDate: todayIso() })).toEqual({});
    expect(errorsOf({ endDate: "2999-01-01" })).toEqual({});
    expect(errorsOf({ endDate: SAVED_END_DATE })).toEqual({});
    expect(errorsOf({ endDate: "2026-01-30" })).toEqual({ endDate: "End date cannot be in the past" });
    expect(errorsOf({ endDate: "" })).toEqual({ endDate: "End date is required" });
  });

  it("requires title and description, even as spaces", () => {
    expect(errorsOf({ title: "  ", description: "" })).toEqual({
      title: "Title is required",
      description: "Description is required",
    });
  });

  it("wants a whole goal of at least 1", () => {
    for (const goal of ["", "0", "12.5", "-3", "abc"]) {
      expect(errorsOf({ goal })).toEqual({ goal: "Goal must be a whole number of at least 1" });
    }
  });

  it("accepts the YouTube link forms the server understands", () => {
    for (const youtubeUrl of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ",
      "https://www.youtube.com/embed/dQw4w9WgXcQ",
      "https://m.youtube.com/shorts/dQw4w9WgXcQ",
      "dQw4w9WgXcQ",
    ]) {
      expect(errorsOf({ youtubeUrl })).toEqual({});
    }
  });

  it("refuses other links as YouTube links and bad image URLs", () => {
    expect(errorsOf({ youtubeUrl: "https://vimeo.com/123", imageUrl: "ftp://x/y.png" })).toEqual({
      youtubeUrl: "Please enter a valid YouTube link.",
      imageUrl: "Please enter a valid image URL starting with http:// or https://",
    });
  });
});
