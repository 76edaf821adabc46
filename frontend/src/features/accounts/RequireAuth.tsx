import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Redirect, useLocation, useSearch } from "wouter";
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

/** Where to go after signing in: the remembered origin when it is a path of ours. */
export function safeNextPath(search: string, fallback = "/dashboard"): string {
  const next = new URLSearchParams(search).get("next");
  return next?.startsWith("/") && !next.startsWith("//") ? next : fallback;
}
