import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";

function Step({ number, title, children }: { number: number; title: ReactNode; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span
        className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
        aria-hidden="true"
      >
        {number}
      </span>
      <div>
        <p className="font-semibold text-slate-900">{title}</p>
        <p className="text-sm text-slate-600">{children}</p>
      </div>
    </li>
  );
}

/** Four steps from a new campaign to confirmed payments. */
export function QuickStartGuide() {
  return (
    <section
      aria-labelledby="quick-start"
      className="mt-10 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="quick-start" className="text-xl font-semibold text-slate-900">
        <Trans>Quick Start Guide</Trans>
      </h2>
      <ol className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Step number={1} title={<Trans>Create</Trans>}>
          <Trans>Create a pledging campaign with your goal, story and how people can pay.</Trans>
        </Step>
        <Step number={2} title={<Trans>Share</Trans>}>
          <Trans>Share your campaign link on WhatsApp, by SMS or at church.</Trans>
        </Step>
        <Step number={3} title={<Trans>Track</Trans>}>
          <Trans>Track pledges and payments as they come in.</Trans>
        </Step>
        <Step number={4} title={<Trans>Confirm</Trans>}>
          <Trans>Confirm payments so every pledge shows what has been paid.</Trans>
        </Step>
      </ol>
    </section>
  );
}
