import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider, type QueryKey } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent, { type Options } from "@testing-library/user-event";
import type { ReactNode } from "react";
import type { Session } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import { SESSION_KEY } from "@/lib/session";

/**
 * Renders `ui` as the app does (Lingui, a fresh query client that does not retry), optionally with a
 * `session` already known (pages behind a sign-in) and `queries` already answered (as a page the server
 * rendered arrives with its data). Returns a user-event session and the query client.
 */
export function renderWithProviders(
  ui: ReactNode,
  {
    session,
    queries = [],
    userOptions,
  }: { session?: Session; queries?: [QueryKey, unknown][]; userOptions?: Options } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  if (session) queryClient.setQueryData(SESSION_KEY, session);
  for (const [key, data] of queries) queryClient.setQueryData(key, data);
  const result = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </I18nProvider>,
  );
  return { ...result, user: userEvent.setup(userOptions), queryClient };
}
