import { useLingui } from "@lingui/react/macro";
import { lazy, Suspense, useRef, useState } from "react";

// The dialog, form and validation live in their own chunk: every page renders this button, but only
// visitors who open it download the rest. Hovering or focusing the button starts the download early.
const loadDialog = () => import("./FeedbackDialog");
const FeedbackDialog = lazy(loadDialog);

/** The 'Send feedback' button shown on every page: floating at the corner on wider screens; on a
 * phone it sits at the end of the page instead, as a floating one would cover form fields and their
 * hints while scrolling. */
export function FeedbackWidget() {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label={t`Send feedback`}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        className="mx-auto my-4 flex w-fit items-center justify-center gap-2 rounded-full bg-brand-700 px-5 py-3 text-white shadow-lg hover:bg-brand-800 print:hidden sm:fixed sm:right-4 sm:bottom-4 sm:z-40 sm:my-0 sm:h-14 sm:w-14 sm:p-0"
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" aria-hidden="true">
          <path
            d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12Z"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
        <span aria-hidden="true" className="font-semibold sm:hidden">
          {t`Send feedback`}
        </span>
      </button>
      {opened && (
        <Suspense fallback={null}>
          <FeedbackDialog open={open} onOpenChange={setOpen} returnFocusTo={buttonRef} />
        </Suspense>
      )}
    </>
  );
}
