/**
 * Step order of the wizards. Steps keep their numbers whoever walks them (drafts save the number as
 * current_step); a subscriber's pledge wizard leaves out step 5, collection accounts, so step 4 leads to
 * the review and back, and the counter reads out of 5.
 */
export const COLLECTION_ACCOUNTS_STEP = 5;
export const ALL_STEPS = [1, 2, 3, 4, 5, 6] as const;
export type StepNumber = (typeof ALL_STEPS)[number];

/** The steps a user walks through, in order. */
export function wizardSteps(skipCollectionAccounts: boolean): StepNumber[] {
  return skipCollectionAccounts
    ? ALL_STEPS.filter((step) => step !== COLLECTION_ACCOUNTS_STEP)
    : [...ALL_STEPS];
}

export function nextStep(steps: readonly StepNumber[], step: StepNumber): StepNumber {
  return steps[steps.indexOf(step) + 1] ?? step;
}

/** Where Continue leads: the next step, or straight back to the review (the last step) when the user
 * came from the review's Edit, so they need not walk the steps between again. */
export function continueStep(
  steps: readonly StepNumber[],
  step: StepNumber,
  editingFromReview: boolean,
): StepNumber {
  return editingFromReview ? (steps[steps.length - 1] ?? step) : nextStep(steps, step);
}

export function previousStep(steps: readonly StepNumber[], step: StepNumber): StepNumber {
  return steps[steps.indexOf(step) - 1] ?? step;
}

/** What the counter shows: 'Step {position} of {total}'. */
export function stepPosition(steps: readonly StepNumber[], step: StepNumber) {
  return { position: steps.indexOf(step) + 1, total: steps.length };
}

export function isLastStep(steps: readonly StepNumber[], step: StepNumber): boolean {
  return steps[steps.length - 1] === step;
}

/**
 * Where a saved draft resumes: its step, or for a step this user no longer walks (collection accounts
 * after subscribing) the next one; anything unknown starts over.
 */
export function resumeStep(steps: readonly StepNumber[], saved: number): StepNumber {
  const first = steps[0] ?? 1;
  if (!Number.isInteger(saved) || saved < 1) return first;
  return steps.find((step) => step >= saved) ?? steps[steps.length - 1] ?? first;
}
