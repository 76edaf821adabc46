import { createRoot, hydrateRoot } from "react-dom/client";
import { AppRoot } from "./AppRoot";
import { activateLocale, isLocale } from "./lib/i18n";
import { type PageQuery, queriesSeed, queryClient } from "./lib/queryClient";
import "./index.css";

/** The answers the server put into the page (backend/config/spa.py), under their hooks' query keys. */
function pageQueries(): PageQuery[] {
  try {
    return JSON.parse(document.getElementById("page-queries")?.textContent || "[]");
  } catch {
    return [];
  }
}

const root = document.getElementById("root");
if (root) {
  // The server chose the language (cookie, profile or Accept-Language) and wrote it on <html lang>:
  // render once its catalogue is in, so nothing shows in English first, and hydration finds the
  // server's words.
  const locale = document.documentElement.lang;
  queriesSeed(queryClient, pageQueries());
  activateLocale(isLocale(locale) ? locale : "en")
    .catch(() => activateLocale("en"))
    .finally(() => {
      const app = <AppRoot queryClient={queryClient} />;
      // A page the server rendered (src/entry-server.tsx) is hydrated: its DOM stays, nothing paints
      // twice. Without one (other pages, or the renderer was out) the app renders into the empty root.
      if (root.firstChild) hydrateRoot(root, app);
      else createRoot(root).render(app);
    });
}
