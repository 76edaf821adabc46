import type { MessageDescriptor, Messages } from "@lingui/core";
import { prerender } from "react-dom/static";
import { AppRoot } from "./AppRoot";
import { i18n, i18nActivate, isLocale } from "./lib/i18n";
import { newQueryClient, type PageQuery, queriesSeed } from "./lib/queryClient";

/** What the server asks for: a page of the app, in a language, with the answers its hooks would fetch. */
export type RenderRequest = { path: string; search?: string; language: string; queries: PageQuery[] };

/** The root's HTML, and the compiled messages it showed (none for English, whose text is in the
 * bundle): the browser hydrates with these instead of waiting for the language's whole catalogue. */
export type Rendered = { html: string; messages: Messages };

// Past this the render is abandoned; the server then sends the page without it (the browser renders).
const RENDER_TIMEOUT_MS = 5_000;

// Every message a render looks up, by id. Components translate through i18n._ or i18n.t (an alias
// bound when i18n was made), so both are replaced by one that notes the id.
let shown: Set<string> | null = null;
const translate = i18n._.bind(i18n) as (...args: unknown[]) => string;
const noting = ((id: string | MessageDescriptor, ...rest: unknown[]) => {
  shown?.add(typeof id === "string" ? id : id.id);
  return translate(id, ...rest);
}) as typeof i18n._;
i18n._ = noting;
i18n.t = noting;

/**
 * The HTML that goes into <div id="root">: the app as the browser's first render will make it, so
 * the browser hydrates it (src/main.tsx) instead of painting it again. Waits for the page's lazy
 * chunks (prerender, not renderToString). The language is the i18n singleton's, as in the browser:
 * renders must not overlap (src/renderer.ts runs one at a time).
 */
export async function render({ path, search = "", language, queries }: RenderRequest): Promise<Rendered> {
  const locale = isLocale(language) ? language : "en";
  await i18nActivate(locale);
  const queryClient = newQueryClient();
  queriesSeed(queryClient, queries);
  shown = new Set();
  try {
    const { prelude } = await prerender(<AppRoot queryClient={queryClient} path={path} search={search} />, {
      signal: AbortSignal.timeout(RENDER_TIMEOUT_MS),
      // Every boundary in place: React would otherwise move large ones to the end of the HTML with an
      // inline script to put them back, which the CSP (script-src 'self') refuses.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => {
        console.error(`Rendering ${path} failed:`, error);
      },
    });
    const html = await new Response(prelude).text();
    const catalogue = i18n.messages;
    const messages: Messages = {};
    for (const id of locale === "en" ? [] : shown) {
      const message = catalogue[id];
      if (message !== undefined) messages[id] = message;
    }
    return { html, messages };
  } finally {
    shown = null;
    queryClient.clear();
  }
}

// One path of each page the server renders (backend/config/spa.py), with no data: enough to load its
// lazy chunk. A page whose chunk is still loading renders slower than the server waits (0.5 s) and goes
// out empty: blank for a phone without JavaScript.
const WARM_UP_PATHS = [
  "/",
  "/how-it-works",
  "/signin",
  "/signup",
  "/explore",
  "/icc-imara-donate",
  "/campaign/0",
  "/campaign/0/pledge",
  "/campaign/0/donate",
  "/pledges/2222222",
];

/** Loads the catalogues and the rendered pages' chunks before the first visitor asks (each page
 * rendered once without data, in each language), so their first render is as quick as the others. */
export async function warmUp(): Promise<void> {
  for (const language of ["sw", "en"])
    for (const path of WARM_UP_PATHS) await render({ path, language, queries: [] });
}
