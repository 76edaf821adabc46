// Button looks of the campaign pages. Not imported from accounts/AuthCard: its chunk carries the form
// code (react-hook-form, valibot), which would push /explore and /campaign/{id} over their budgets.
export const primaryButton =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white " +
  "hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60";

export const secondaryButton =
  "inline-flex w-full items-center justify-center rounded-md border border-brand-700 px-4 py-2.5 " +
  "font-semibold text-brand-700 hover:bg-brand-50";
