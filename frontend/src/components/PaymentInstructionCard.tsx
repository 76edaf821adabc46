import { Trans } from "@lingui/react/macro";
import type { Schemas } from "@/lib/api/client";

export type PaymentInstruction = Schemas["PaymentInstructionOut"];

/** How to pay into one of an organization's accounts, as the server words it
 * (backend/collection_accounts/instructions.py): the campaign page, the pledge and the donation dialog.
 * `heading`: one level below the heading of the list it is in. */
export function PaymentInstructionCard({
  instruction,
  heading: Heading = "h3",
}: {
  instruction: PaymentInstruction;
  heading?: "h3" | "h4";
}) {
  return (
    <li className="rounded-lg border border-slate-200 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading className="font-medium text-slate-900">{instruction.label}</Heading>
        {instruction.matched_automatically && (
          <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
            <Trans>Matched automatically</Trans>
          </span>
        )}
      </div>
      {instruction.lines.length > 0 && (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {instruction.lines.map((line) => (
            <div key={line.label} className="contents">
              <dt className="text-slate-600">{line.label}</dt>
              <dd className="font-mono font-semibold break-all text-slate-900">{line.value}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="mt-2 text-sm text-slate-700">{instruction.note}</p>
    </li>
  );
}
