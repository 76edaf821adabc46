import { Trans, useLingui } from "@lingui/react/macro";
import { formatKsh } from "@/lib/money";
import type { Category, StatementImport } from "./api";

export const CATEGORIES: Category[] = ["matched", "recorded", "keyword", "unmatched", "ignored"];

export const card = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6";

export function useCategoryNames(): Record<Category, string> {
  const { t } = useLingui();
  return {
    matched: t`Matched to a pledge`,
    recorded: t`Already recorded`,
    keyword: t`Tithes and offerings`,
    unmatched: t`Unmatched`,
    ignored: t`Ignored`,
  };
}

export function Figures({ statementImport }: { statementImport: StatementImport }) {
  const names = useCategoryNames();
  return (
    <div>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">
          <Trans>Rows and amounts of each kind</Trans>
        </caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-600">
            <th scope="col" className="py-2 pr-4 font-medium">
              <Trans>Kind</Trans>
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              <Trans>Rows</Trans>
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              <Trans>Amount</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {CATEGORIES.map((category) => {
            const figures = statementImport.figures[category] ?? { rows: 0, total: 0 };
            return (
              <tr key={category} className="border-b border-slate-100">
                <th scope="row" className="py-2 pr-4 font-normal text-slate-800">
                  {names[category]}
                </th>
                <td className="py-2 pr-4 text-right tabular-nums">{figures.rows}</td>
                <td className="py-2 text-right tabular-nums">{formatKsh(figures.total)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
