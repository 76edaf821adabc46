import { describe, expect, it } from "vitest";
import { youtubeVideoId } from "@/lib/youtube";
import { coverProblems, endDateAfter, pledgeValuesFromDraft } from "./rules";

describe("youtubeVideoId", () => {
  it.each([
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ",
    "https://youtu.be/dQw4w9WgXcQ?si=x",
    "youtube.com/shorts/dQw4w9WgXcQ",
    "https://www.youtube.com/embed/dQw4w9WgXcQ",
    "dQw4w9WgXcQ",
  ])("reads the video id of %s", (link) => {
    expect(youtubeVideoId(link)).toBe("dQw4w9WgXcQ");
  });

  it.each([
    "https://vimeo.com/76979871",
    "https://example.com/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.com/watch?list=PL1",
    "https://youtu.be/short",
    "not a link",
  ])("refuses %s", (link) => {
    expect(youtubeVideoId(link)).toBeNull();
  });
});

describe("coverProblems", () => {
  const text = (problems: ReturnType<typeof coverProblems>) =>
    problems.map(([key, m]) => `${key}: ${m.message}`);

  it("needs an upload or a readable YouTube link", () => {
    expect(text(coverProblems({ mediaType: "upload", mediaUrl: "", youtubeUrl: "" }))).toEqual([
      "mediaUrl: Please upload an image or video.",
    ]);
    expect(text(coverProblems({ mediaType: "youtube", mediaUrl: "/media/a.png", youtubeUrl: "" }))).toEqual([
      "youtubeUrl: Please enter a YouTube link.",
    ]);
    expect(
      text(coverProblems({ mediaType: "youtube", mediaUrl: "", youtubeUrl: "https://vimeo.com/1" })),
    ).toEqual(["youtubeUrl: Please enter a valid YouTube link."]);
    expect(coverProblems({ mediaType: "upload", mediaUrl: "/media/a.png", youtubeUrl: "junk" })).toEqual([]);
  });
});

describe("pledgeValuesFromDraft", () => {
  it("keeps the known fields of a saved draft and empties the rest", () => {
    const values = pledgeValuesFromDraft({
      category: "church",
      goal: 5,
      title: "Roof",
      mediaType: "youtube",
      collectionAccounts: [{ method: "cash", details: { location: "Office", n: 1 } }, "junk"],
      extra: "ignored",
    });
    expect(values).toMatchObject({ category: "church", goal: "", title: "Roof", mediaType: "youtube" });
    expect(values.collectionAccounts).toEqual([{ method: "cash", details: { location: "Office" } }]);
    expect(values).not.toHaveProperty("extra");
  });

  it("reads the accounts of a draft saved while the wizard called them payment options", () => {
    const values = pledgeValuesFromDraft({
      paymentOptions: [{ method: "till", details: { till_number: "5123456" } }],
    });
    expect(values.collectionAccounts).toEqual([{ method: "till", details: { till_number: "5123456" } }]);
  });

  it("starts with one empty collection account choice", () => {
    expect(pledgeValuesFromDraft({}).collectionAccounts).toEqual([{ method: "", details: {} }]);
  });
});

describe("endDateAfter", () => {
  it("counts calendar days across months and years", () => {
    expect(endDateAfter(30, "2026-12-15")).toBe("2027-01-14");
    expect(endDateAfter(1, "2028-02-28")).toBe("2028-02-29");
  });
});
