import { I18nProvider } from "@lingui/react";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { Router } from "wouter";
import { App } from "./App";
import { i18n } from "./lib/i18n";

/**
 * The app with its providers: what the browser renders (src/main.tsx) and what the server renders
 * first (src/entry-server.tsx). One tree for both, so hydration finds the markup it would have made
 * (useId counts positions in this tree). `path` and `search`: the server's request; the browser reads
 * its own location.
 */
export function AppRoot({
  queryClient,
  path,
  search,
}: {
  queryClient: QueryClient;
  path?: string;
  search?: string;
}) {
  return (
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <Router ssrPath={path} ssrSearch={search}>
            <App />
          </Router>
        </QueryClientProvider>
      </I18nProvider>
    </StrictMode>
  );
}
