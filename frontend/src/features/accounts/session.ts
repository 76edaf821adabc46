import { msg } from "@lingui/core/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Session, setCsrfToken, unwrap } from "@/lib/api/client";
import { activateLocale, i18n, isLocale } from "@/lib/i18n";

export const SESSION_KEY = ["session"] as const;

async function fetchSession(): Promise<Session> {
  const session = unwrap(
    await api.GET("/api/auth/session"),
    i18n._(msg`An unexpected error occurred. Please try again.`),
  );
  setCsrfToken(session.csrf_token);
  return session;
}

/** Who is signed in, as the server says. The browser never decides this on its own. */
export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 5 * 60_000 });
}

/** Store a session answer (sign-in, sign-up, sign-out all return one). */
export function useSetSession() {
  const queryClient = useQueryClient();
  return (session: Session) => {
    setCsrfToken(session.csrf_token);
    queryClient.setQueryData(SESSION_KEY, session);
    // Signing in switches to the language the user chose before (the server set its cookie too).
    const language = session.user?.language;
    if (isLocale(language) && language !== i18n.locale) void activateLocale(language);
  };
}
