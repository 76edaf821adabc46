import { useLingui } from "@lingui/react/macro";
import { lazy, Suspense, useRef, useState } from "react";

// The dialog, form and validation live in their own chunk: every page renders this button, but only
// visitors who open it download the rest. Hovering or focusing the button starts the download early.
const loadDialog = () => import("./FeedbackDialog");
const FeedbackDialog = lazy(loadDialog);

/** The floating 'Send feedback' button shown on every page. */
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
        className="fixed right-4 bottom-4 z-40 flex h-14 w-14 items-center justify-center rounded-full bg-brand-700 text-white shadow-lg hover:bg-brand-800"
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" aria-hidden="true">
          <path
            d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12Z"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      {opened && (
        <Suspense fallback={null}>
          <FeedbackDialog open={open} onOpenChange={setOpen} returnFocusTo={buttonRef} />
        </Suspense>
      )}
    </>
  );
}
