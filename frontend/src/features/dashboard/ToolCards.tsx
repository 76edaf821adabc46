import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Link } from "wouter";

const cardClass =
  "flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-600 hover:shadow-md";

function ToolBody({ icon, title, text }: { icon: string; title: ReactNode; text: ReactNode }) {
  return (
    <>
      <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
        <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" aria-hidden="true">
          <path d={icon} strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </span>
      <span className="mt-3 block text-lg font-semibold text-slate-900">{title}</span>
      <span className="mt-1 block text-sm text-slate-600">{text}</span>
    </>
  );
}

const ICONS = {
  pledge: "M12 21s-7-4.5-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 11c0 5.5-7 10-7 10Z",
  content: "M4 5h16v14H4zM8 9h8M8 13h5",
  grant: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14ZM21 21l-5-5",
  crowd:
    "M7 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM17 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM2 20a5 5 0 0 1 10 0M12 20a5 5 0 0 1 10 0",
};

/** The four tools of the dashboard; crowdfunding is not available yet. */
export function ToolCards({ contentToolUrl }: { contentToolUrl: string | undefined }) {
  return (
    <section aria-labelledby="tools" className="mt-8">
      <h2 id="tools" className="text-xl font-semibold text-slate-900">
        <Trans>Your tools</Trans>
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <li>
          <Link href="/pledge/create-campaign" className={cardClass}>
            <ToolBody
              icon={ICONS.pledge}
              title={<Trans>Pledging Tool</Trans>}
              text={<Trans>Create pledge campaigns, share links and send automated reminders.</Trans>}
            />
          </Link>
        </li>
        <li>
          {/* The address comes with the dashboard data; until then the card waits without a link. */}
          <a
            href={contentToolUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-disabled={contentToolUrl ? undefined : true}
            className={cardClass}
          >
            <ToolBody
              icon={ICONS.content}
              title={<Trans>Organization Content Tool</Trans>}
              text={<Trans>Prepare content for your organization (opens in a new tab).</Trans>}
            />
          </a>
        </li>
        <li>
          <Link href="/grantfunding" className={cardClass}>
            <ToolBody
              icon={ICONS.grant}
              title={<Trans>Grant Funding Tool</Trans>}
              text={<Trans>Find grants that match your organization's mission and needs.</Trans>}
            />
          </Link>
        </li>
        <li>
          {/* Focusable but inert, so screen-reader users also learn it is coming. */}
          <button
            type="button"
            aria-disabled="true"
            className="flex h-full w-full cursor-not-allowed flex-col rounded-xl border border-dashed border-slate-300 bg-slate-50 p-5 text-left"
          >
            <ToolBody
              icon={ICONS.crowd}
              title={<Trans>Crowdfunding</Trans>}
              text={<Trans>Coming soon</Trans>}
            />
          </button>
        </li>
      </ul>
    </section>
  );
}
