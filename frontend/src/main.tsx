import { setNonce } from "get-nonce";
import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { AppRoot } from "./AppRoot";
import { activateLocale, catalogueWhenNeeded, i18nActivateShown, isLocale } from "./lib/i18n";
import { queriesSeed, queryClient } from "./lib/queryClient";
import "./index.css";

/** JSON the server put into the page (backend/config/spa.py), or `empty` without it. */
function pageJson<T>(id: string, empty: T): T {
  try {
    return JSON.parse(document.getElementById(id)?.textContent || "null") ?? empty;
  } catch {
    return empty;
  }
}

// A modal dialog locks the page's scroll with a <style> element (Radix, through react-style-singleton,
// which takes its nonce from get-nonce): the CSP allows it by the nonce of this response, when the
// server gave it one (backend/config/spa.py). The nonce attribute, unlike content, is hidden from CSS.
const styleNonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
if (styleNonce) setNonce(styleNonce);

const root = document.getElementById("root");
if (root) {
  // The server chose the language (cookie, profile or Accept-Language) and wrote it on <html lang>.
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : "en";
  // The answers the page's first hooks would fetch, under their query keys.
  queriesSeed(queryClient, pageJson("page-queries", []));
  const app = <AppRoot queryClient={queryClient} />;
  if (root.firstChild) {
    // A page the server rendered (src/entry-server.tsx) is hydrated: its DOM stays, nothing paints
    // twice. It came with the messages it shows; the rest of the catalogue comes when needed.
    i18nActivateShown(locale, pageJson("page-messages", {}));
    // In a task of its own after the app's modules have run, so that a phone answers a tap between
    // them; React then hydrates in slices, in a transition (a tap on the server's HTML meanwhile
    // hydrates its part first). No Intl object is built while it does (lib/numbers.ts).
    setTimeout(() =>
      startTransition(() => {
        hydrateRoot(root, app, {
          onRecoverableError: (error) => console.error("Hydrating the server's HTML failed:", error),
        });
      }),
    );
    catalogueWhenNeeded(locale);
  } else {
    // Other pages, or the renderer was out: render once the catalogue is in, so nothing shows in
    // English first.
    activateLocale(locale)
      .catch(() => activateLocale("en"))
      .finally(() => createRoot(root).render(app));
  }
}
