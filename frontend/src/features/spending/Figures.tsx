import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { formatKsh } from "@/lib/money";
import type { Figures } from "./api";

function Figure({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-slate-900">{children}</dd>
    </div>
  );
}

/** Raised, platform fees, spent and what is left: the server's figures (backend/spending/selectors.py). */
export function FigureList({ figures }: { figures: Figures }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <Figure label={<Trans>Raised</Trans>}>{formatKsh(figures.raised)}</Figure>
      <Figure label={<Trans>Platform fees</Trans>}>{formatKsh(figures.platform_fees)}</Figure>
      <Figure label={<Trans>Spent</Trans>}>{formatKsh(figures.spent)}</Figure>
      <Figure label={<Trans>Left</Trans>}>{formatKsh(figures.left)}</Figure>
    </dl>
  );
}
