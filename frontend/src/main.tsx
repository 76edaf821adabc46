import { I18nProvider } from "@lingui/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { activateLocale, i18n, isLocale } from "./lib/i18n";
import { queryClient } from "./lib/queryClient";
import "./index.css";

function render(root: HTMLElement) {
  createRoot(root).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </I18nProvider>
    </StrictMode>,
  );
}

// Longest the app waits for a server-rendered cover (below) before taking over anyway.
const SHELL_COVER_WAIT_MS = 2000;

/**
 * A campaign page arrives with a shell of itself (cover, title) that paints before this script has
 * run. Rendering replaces it, so wait until its cover has been painted: the page's largest element
 * then shows once, early, instead of again in the app's own markup.
 */
function shellCoverPainted(root: HTMLElement): Promise<void> {
  const cover = root.querySelector("img");
  if (!cover) return Promise.resolve();
  const decoded = cover.decode().catch(() => undefined);
  const painted = decoded.then(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve))),
  );
  return Promise.race([painted, new Promise<void>((resolve) => setTimeout(resolve, SHELL_COVER_WAIT_MS))]);
}

const root = document.getElementById("root");
if (root) {
  // The server chose the language (cookie, profile or Accept-Language) and wrote it on <html lang>:
  // render once its catalogue is in, so nothing shows in English first.
  const locale = document.documentElement.lang;
  const catalogue = activateLocale(isLocale(locale) ? locale : "en").catch(() => activateLocale("en"));
  Promise.allSettled([catalogue, shellCoverPainted(root)]).finally(() => render(root));
}
