import { describe, expect, it } from "vitest";
import {
  continueStep,
  isLastStep,
  nextStep,
  previousStep,
  resumeStep,
  stepPosition,
  wizardSteps,
} from "./steps";

describe("the pledge wizard's steps", () => {
  const everyone = wizardSteps(false);
  const subscribers = wizardSteps(true);

  it("has six steps, counted out of 6, for non-subscribers", () => {
    expect(everyone).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stepPosition(everyone, 5)).toEqual({ position: 5, total: 6 });
    expect(nextStep(everyone, 4)).toBe(5);
    expect(previousStep(everyone, 6)).toBe(5);
  });

  it("skips collection accounts for subscribers and renumbers the review as step 5 of 5", () => {
    expect(subscribers).toEqual([1, 2, 3, 4, 6]);
    expect(stepPosition(subscribers, 4)).toEqual({ position: 4, total: 5 });
    expect(stepPosition(subscribers, 6)).toEqual({ position: 5, total: 5 });
  });

  it("takes a subscriber from step 4 to the review and back to 4", () => {
    expect(nextStep(subscribers, 4)).toBe(6);
    expect(previousStep(subscribers, 6)).toBe(4);
  });

  it("moves one step at a time and stops at either end", () => {
    expect(nextStep(everyone, 1)).toBe(2);
    expect(previousStep(everyone, 2)).toBe(1);
    expect(previousStep(everyone, 1)).toBe(1);
    expect(nextStep(everyone, 6)).toBe(6);
    expect(isLastStep(everyone, 6)).toBe(true);
    expect(isLastStep(subscribers, 4)).toBe(false);
  });

  it("continues from a step opened by the review's Edit straight back to the review", () => {
    expect(continueStep(everyone, 2, true)).toBe(6);
    expect(continueStep(subscribers, 3, true)).toBe(6);
    expect(continueStep(everyone, 2, false)).toBe(3);
  });

  it("resumes a draft at its saved step", () => {
    expect(resumeStep(everyone, 3)).toBe(3);
    expect(resumeStep(subscribers, 4)).toBe(4);
    expect(resumeStep(everyone, 5)).toBe(5);
  });

  it("resumes a subscriber saved on collection accounts at the review", () => {
    expect(resumeStep(subscribers, 5)).toBe(6);
  });

  it("starts over for a step that cannot be", () => {
    expect(resumeStep(everyone, 0)).toBe(1);
    expect(resumeStep(everyone, 2.5)).toBe(1);
    expect(resumeStep(everyone, 42)).toBe(6);
  });
});
