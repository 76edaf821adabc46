import type { Schemas } from "@/lib/api/client";

/** The six questions of the grant tool, in order (spec section 2); step indexes run 0 to 5. */
export const QUESTIONS = [
  "organizationName",
  "mission",
  "focusAreas",
  "organizationType",
  "location",
  "fundingRange",
] as const;
export type Question = (typeof QUESTIONS)[number];
export type Answers = Record<Question, string>;
export const LAST_STEP = QUESTIONS.length - 1;

/** The question of a step index (0 to 5; anything else reads as the first). */
export function questionAt(step: number): Question {
  return QUESTIONS[step] ?? QUESTIONS[0];
}

/** The answers as the server names them: the profile's body, and the draft's step_data. */
export type ProfileBody = Schemas["OrganizationProfileIn"];
const SERVER_NAMES: Record<Question, keyof ProfileBody> = {
  organizationName: "organization_name",
  mission: "mission",
  focusAreas: "focus_areas",
  organizationType: "organization_type",
  location: "location",
  fundingRange: "funding_range",
};

export function toProfileBody(answers: Answers): ProfileBody {
  return Object.fromEntries(QUESTIONS.map((q) => [SERVER_NAMES[q], answers[q]])) as ProfileBody;
}

/** Answers from a saved draft or profile; anything missing or not text is an empty answer. */
export function answersFrom(data: Record<string, unknown> | null | undefined): Answers {
  return Object.fromEntries(
    QUESTIONS.map((q) => {
      const value = data?.[SERVER_NAMES[q]];
      return [q, typeof value === "string" ? value : ""];
    }),
  ) as Answers;
}

export const isAnswered = (answer: string) => answer.trim() !== "";

/**
 * The step to resume on: the draft's own, but never past the first unanswered question
 * (a draft saved by another version of the page may be ahead of its answers).
 */
export function resumeStep(currentStep: number, answers: Answers): number {
  const firstUnanswered = QUESTIONS.findIndex((q) => !isAnswered(answers[q]));
  const limit = firstUnanswered === -1 ? LAST_STEP : firstUnanswered;
  const step = Number.isInteger(currentStep) ? currentStep : 0;
  return Math.min(Math.max(step, 0), limit);
}

/** The step of the first question a server error names, for jumping back to it. */
export function stepOf(serverField: string): number {
  return QUESTIONS.findIndex((q) => SERVER_NAMES[q] === serverField);
}
