import { describe, expect, it } from "vitest";
import { formatDate, formatUsd } from "./format";
import {
  type Answers,
  answersFrom,
  LAST_STEP,
  QUESTIONS,
  resumeStep,
  stepOf,
  toProfileBody,
} from "./questionnaire";

const full: Answers = {
  organizationName: "Hope Church",
  mission: "Serving Nairobi",
  focusAreas: "Education",
  organizationType: "Church",
  location: "Nairobi, Kenya",
  fundingRange: "Up to $25,000",
};

describe("questionnaire", () => {
  it("has the six questions of the spec, steps 0 to 5", () => {
    expect(QUESTIONS).toHaveLength(6);
    expect(LAST_STEP).toBe(5);
  });

  it("round-trips answers through the server's names", () => {
    const body = toProfileBody(full);
    expect(body).toEqual({
      organization_name: "Hope Church",
      mission: "Serving Nairobi",
      focus_areas: "Education",
      organization_type: "Church",
      location: "Nairobi, Kenya",
      funding_range: "Up to $25,000",
    });
    expect(answersFrom(body)).toEqual(full);
  });

  it("reads missing or malformed draft data as empty answers", () => {
    expect(answersFrom(null).mission).toBe("");
    expect(answersFrom({ mission: 42, location: "Kisumu" })).toMatchObject({
      mission: "",
      location: "Kisumu",
    });
  });

  it("resumes on the draft's step but not past the first blank answer", () => {
    expect(resumeStep(3, full)).toBe(3);
    expect(resumeStep(9, full)).toBe(LAST_STEP);
    expect(resumeStep(-2, full)).toBe(0);
    expect(resumeStep(4, { ...full, focusAreas: "   " })).toBe(2);
    expect(resumeStep(Number.NaN, full)).toBe(0);
  });

  it("finds the step of a server field error", () => {
    expect(stepOf("focus_areas")).toBe(2);
    expect(stepOf("unknown")).toBe(-1);
  });
});

describe("format", () => {
  it("shows dollars without decimals", () => {
    expect(formatUsd(25000)).toBe("$25,000");
    expect(formatUsd(350000.4)).toBe("$350,000");
  });

  it("shows a calendar date as given, whatever the time zone", () => {
    expect(formatDate("2027-02-15")).toBe("15 Feb 2027");
    expect(formatDate("2026-12-01")).toBe("1 Dec 2026");
  });
});
