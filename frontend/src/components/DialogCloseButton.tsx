import { useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";

/** The × in the corner of every dialog. */
export function DialogCloseButton() {
  const { t } = useLingui();
  return (
    <Dialog.Close
      aria-label={t`Close`}
      className="absolute top-3 right-3 rounded p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
    >
      <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
        <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" />
      </svg>
    </Dialog.Close>
  );
}
