/** A percentage for a bar: whole, never below 0 and never above 100 (campaigns may pass their goal). */
export function clampPercent(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  return Math.min(100, Math.max(0, Math.round(percent)));
}

/** A progress bar capped at 100%, named for assistive technology by `label`. The bar is an SVG
 * rectangle's width: a style attribute in the server's HTML would be refused by the CSP (style-src). */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const value = clampPercent(percent);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <svg className="block h-full w-full" aria-hidden="true">
        <rect width={`${value}%`} height="100%" rx="5" className="fill-brand-600" />
      </svg>
    </div>
  );
}
