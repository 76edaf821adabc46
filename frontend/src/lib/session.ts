import { useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { toast } from "@/components/toast";
import { api, type Session, setCsrfToken, unwrap } from "@/lib/api/client";
import { activateLocale, i18n, isLocale, type Locale } from "@/lib/i18n";

// Who is signed in, the CSRF token that comes with it, and the requests that change them: every page
// and the shared header need these, so they live here rather than in a feature.

export const SESSION_KEY = ["session"] as const;

async function fetchSession(): Promise<Session> {
  const session = unwrap(await api.GET("/api/auth/session"));
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

/** Resolves once the session (and with it the CSRF token every POST needs) has arrived. */
export function useSessionReady() {
  const session = useSession();
  return async () => {
    if (!session.data) await session.refetch();
  };
}

/** Ends the server session, then says 'Signed out' and goes home. */
export function useSignOut() {
  const { t } = useLingui();
  const setSession = useSetSession();
  const [, navigate] = useLocation();
  return async () => {
    try {
      setSession(unwrap(await api.POST("/api/auth/signout")));
      sessionStorage.clear();
      toast({ title: t`Signed out` });
      navigate("/");
    } catch (error) {
      toast({ title: t`Error`, description: (error as Error).message, variant: "destructive" });
    }
  };
}

/** Remembers the language on the server: a cookie, and the signed-in user's profile. */
export async function saveLanguage(language: Locale): Promise<void> {
  unwrap(await api.PUT("/api/auth/language", { body: { language } }));
}
