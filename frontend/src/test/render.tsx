import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent, { type Options } from "@testing-library/user-event";
import type { ReactNode } from "react";
import type { Session } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";
import { SESSION_KEY } from "@/lib/session";

/**
 * Renders `ui` as the app does (Lingui, a fresh query client that does not retry), optionally with a
 * `session` already known (pages behind a sign-in). Returns a user-event session and the query client.
 */
export function renderWithProviders(
  ui: ReactNode,
  { session, userOptions }: { session?: Session; userOptions?: Options } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  if (session) queryClient.setQueryData(SESSION_KEY, session);
  const result = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </I18nProvider>,
  );
  return { ...result, user: userEvent.setup(userOptions), queryClient };
}
