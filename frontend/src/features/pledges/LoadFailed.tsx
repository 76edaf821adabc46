import { Trans } from "@lingui/react/macro";
import { errorMessage } from "@/lib/api/client";

/** In place of a panel of Pledge Management whose data could not load, with a way to try again. */
export function LoadFailed({ error, retry }: { error: unknown; retry(): void }) {
  return (
    <div role="alert" className="mt-2 rounded-md bg-red-50 p-3 text-sm text-red-800">
      <p>{errorMessage(error)}</p>
      <button type="button" onClick={retry} className="mt-1 font-medium underline">
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}
