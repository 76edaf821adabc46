import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";

/** A grey, pulsing stand-in of the given shape, announced to screen readers as loading. */
export function LoadingPlaceholder({ className, children }: { className: string; children?: ReactNode }) {
  const { t } = useLingui();
  return (
    <div className={`animate-pulse ${className}`} role="status" aria-busy="true">
      <span className="sr-only">{t`Loading...`}</span>
      {children}
    </div>
  );
}

/** Shown while a page's code or data loads: the shape of a page, never a blank screen. */
export function PageSkeleton() {
  return (
    <LoadingPlaceholder className="mx-auto max-w-5xl p-4">
      <div className="mb-6 h-10 w-40 rounded bg-slate-200" />
      <div className="mb-3 h-8 w-3/4 rounded bg-slate-200" />
      <div className="mb-8 h-4 w-1/2 rounded bg-slate-200" />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="h-40 rounded-lg bg-slate-200" />
        <div className="h-40 rounded-lg bg-slate-200" />
      </div>
    </LoadingPlaceholder>
  );
}
