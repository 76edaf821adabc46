import { useLingui } from "@lingui/react/macro";
import { useLocation } from "wouter";
import { toast } from "@/components/toast";
import { api, unwrap } from "@/lib/api/client";
import { useSetSession } from "./session";

/** Ends the server session, then says 'Signed out' and goes home. */
export function useSignOut() {
  const { t } = useLingui();
  const setSession = useSetSession();
  const [, navigate] = useLocation();
  return async () => {
    try {
      setSession(
        unwrap(await api.POST("/api/auth/signout"), t`An unexpected error occurred. Please try again.`),
      );
      sessionStorage.clear();
      toast({ title: t`Signed out` });
      navigate("/");
    } catch (error) {
      toast({ title: t`Error`, description: (error as Error).message, variant: "destructive" });
    }
  };
}
