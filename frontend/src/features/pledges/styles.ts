// Looks shared by the pledge and donation screens (kept apart from the dialogs so a page can show a
// dialog-shaped placeholder without loading the dialog code).

/** A bottom sheet on phones, a centred card from the small breakpoint up. */
export const dialogPanel =
  "fixed inset-x-0 bottom-0 z-50 max-h-[95vh] overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl " +
  "sm:top-1/2 sm:left-1/2 sm:bottom-auto sm:w-full sm:max-w-lg sm:-translate-x-1/2 sm:-translate-y-1/2 " +
  "sm:rounded-2xl sm:p-6";
