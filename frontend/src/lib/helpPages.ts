import type { Locale } from "./i18n";

/** The guide's pages (docs/guide/<page>.md, and <page>.sw.md in Kiswahili). */
export type GuidePage =
  | "owner-first-evening"
  | "treasurer-week"
  | "harambee-night"
  | "feature-phone"
  | "instalments"
  | "spending"
  | "my-giving";

/**
 * The guide page that helps with each signed-in page, by its path: the first pattern that matches.
 * A page that no row names shows no Help link. helpPages.test.ts checks that each guide page exists in
 * both languages.
 */
const HELP_PAGES: ReadonlyArray<readonly [RegExp, GuidePage]> = [
  [/^\/(dashboard|home)\/?$/, "owner-first-evening"],
  [/^\/organizations(\/\d+(\/collection-accounts)?)?\/?$/, "owner-first-evening"],
  [/^\/orgs\/\d+\/collection-accounts\/\d+\/(mpesa|cards)\/?$/, "owner-first-evening"],
  [/^\/(pledge\/create-campaign|campaign\/\d+\/edit|edit-campaign\/\d+)\/?$/, "owner-first-evening"],
  [/^\/orgs\/\d+\/statements\/?$/, "treasurer-week"],
  [/^\/campaign\/\d+(\/analytics)?\/?$/, "treasurer-week"],
  [/^\/campaign\/\d+\/spending\/team\/?$/, "spending"],
  [/^\/campaign\/\d+\/(events|desk)(\/\d+\/(report|cash))?\/?$/, "harambee-night"],
  [/^\/my-pledges\/?$/, "feature-phone"],
  [/^\/my-giving\/?$/, "my-giving"],
  [/^\/pledges\/[^/]+\/?$/, "instalments"],
];

/** Where the docs site is served: `make build` builds it into what the app serves at /docs/. */
const DOCS_ROOT = "/docs/";

/** The address of the guide page for `path` in `locale` (Kiswahili pages live under /docs/sw/), or null. */
export function helpHref(path: string, locale: Locale): string | null {
  const page = HELP_PAGES.find(([pattern]) => pattern.test(path))?.[1];
  if (!page) return null;
  return `${DOCS_ROOT}${locale === "en" ? "" : `${locale}/`}guide/${page}/`;
}

export const GUIDE_PAGES: readonly GuidePage[] = [...new Set(HELP_PAGES.map(([, page]) => page))];
