import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { primaryButton } from "./buttonStyles";

/** In place of a page whose data could not load: what went wrong, and a button to try again. */
export function PageLoadError({ message, retry }: { message: ReactNode; retry(): void }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center" role="alert">
      <p className="text-slate-800">{message}</p>
      <button type="button" className={`${primaryButton} mt-4 sm:w-auto`} onClick={retry}>
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}
