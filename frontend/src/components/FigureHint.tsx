import { useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";

/**
 * What a figure counts, in a sentence: on hover (the button's title) and on tap or Enter (the
 * sentence opens below it, read out with the figure it explains).
 */
export function FigureHint({ figure, explanation }: { figure: string; explanation: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        title={explanation}
        aria-label={t`What "${figure}" counts`}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((shown) => !shown)}
        className="ml-1 inline-flex h-5 w-5 items-center justify-center rounded-full border border-slate-300 text-xs font-semibold text-slate-600 hover:bg-slate-100"
      >
        ?
      </button>
      <span id={id} hidden={!open} className="mt-1 block text-xs font-normal text-slate-600">
        {explanation}
      </span>
    </>
  );
}
