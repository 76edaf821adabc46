// The app's button looks, for buttons and for links that look like buttons. A module of its own,
// without components or form code, so that any page can use them without loading another feature's chunk.

/** The main action: full width on phones; add `sm:w-auto` where it should shrink on wider screens. */
export const primaryButton =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white " +
  "hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60";

/** A second action beside the main one, outlined in the brand colour. */
export const secondaryButton =
  "inline-flex w-full items-center justify-center rounded-md border border-brand-700 px-4 py-2.5 " +
  "font-semibold text-brand-700 hover:bg-brand-50";

/** An action that cannot be undone (delete my account), outlined in red. */
export const dangerButton =
  "inline-flex w-full items-center justify-center rounded-md border border-red-700 px-4 py-2.5 " +
  "font-semibold text-red-700 hover:bg-red-50";

/** A small, quiet action in tables and panels (export, save settings, load more). */
export const outlineButton =
  "rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 " +
  "disabled:cursor-not-allowed disabled:opacity-60";
