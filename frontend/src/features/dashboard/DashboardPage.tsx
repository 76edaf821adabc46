import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect } from "react";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { toast } from "@/components/toast";
import { useSession } from "@/features/accounts/session";

const WELCOMED_KEY = "hasWelcomed";

/** Placeholder dashboard: greets the user; the tools arrive in a later issue. */
export default function DashboardPage() {
  const { t } = useLingui();
  // RequireAuth renders this page only with a signed-in user.
  const name = useSession().data?.user?.display_name ?? "";

  useEffect(() => {
    // Once per browser session; signing out clears sessionStorage.
    if (!name || sessionStorage.getItem(WELCOMED_KEY)) return;
    sessionStorage.setItem(WELCOMED_KEY, "true");
    toast({ title: t`Welcome, ${name}!`, description: t`We're glad to see you back.` });
  }, [name, t]);

  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-5xl px-4 py-8">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
          <Trans>Hello, {name}</Trans>
        </h1>
        <p className="mt-2 text-slate-600">
          <Trans>This is your dashboard. Your fundraising tools will appear here soon.</Trans>
        </p>
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-slate-700">
          <p>
            <Trans>
              In the meantime you can{" "}
              <Link href="/profile" className="font-medium text-brand-700 underline">
                update your profile
              </Link>
              .
            </Trans>
          </p>
        </div>
      </div>
    </AppLayout>
  );
}
