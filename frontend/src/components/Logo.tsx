import { Trans } from "@lingui/react/macro";

export function Logo() {
  return (
    <span className="flex items-center gap-2 text-xl font-bold text-brand-700">
      <svg viewBox="0 0 32 32" className="h-8 w-8" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path d="M9 8h3.5v6.2h7V8H23v16h-3.5v-6.6h-7V24H9z" fill="#fff" />
      </svg>
      <Trans>Harambee</Trans>
    </span>
  );
}
