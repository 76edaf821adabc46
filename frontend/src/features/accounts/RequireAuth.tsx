import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Redirect, useLocation, useSearch } from "wouter";
import { isClientRoute } from "@/lib/clientRoutes";
import { useSession } from "@/lib/session";

/** Sign-in guard: asks the server who is signed in; otherwise /signin, remembering where we were. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const [location] = useLocation();
  const search = useSearch();
  if (session.isPending) {
    return (
      <p className="p-6 text-center text-slate-600" role="status">
        <Trans>Loading...</Trans>
      </p>
    );
  }
  if (!session.data?.user) {
    const origin = location + (search ? `?${search}` : "");
    return <Redirect to={`/signin?next=${encodeURIComponent(origin)}`} replace />;
  }
  return <>{children}</>;
}

/** Where to go after signing in: the remembered origin when it is a page of ours. It is read as the
 * browser would read it (`next=/%5Cevil.example` decodes to a backslash, which browsers read as `//`:
 * another site), and kept only when it stays on this site with no backslash or space in it, on one of
 * the app's routes (the server's list, lib/clientRoutes.ts). */
export function safeNextPath(search: string, fallback = "/dashboard"): string {
  const next = new URLSearchParams(search).get("next");
  if (!next?.startsWith("/")) return fallback;
  const here = window.location.origin;
  const target = new URL(next, here);
  return target.origin === here && !/[\\\s]/.test(next) && isClientRoute(target.pathname)
    ? target.pathname + target.search + target.hash
    : fallback;
}
