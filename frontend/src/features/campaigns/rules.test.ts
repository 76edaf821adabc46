import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { campaignEditSchema } from "./rules";

const valid = {
  title: "Borehole",
  description: "Water for Kathonzweni",
  goal: "1200000",
  largestPledge: "1200000",
  unsignedPledgesCountAfterPayment: false,
  instalmentsPastEnd: false,
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
