import type { ReactNode } from "react";
import { AppLayout } from "@/components/AppLayout";

export const textLink = "font-medium text-brand-700 underline-offset-2 hover:underline";

/** The narrow card the sign-in, sign-up and password pages share. */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: ReactNode;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
          {intro && <p className="mt-1 text-slate-600">{intro}</p>}
          <div className="mt-6">{children}</div>
        </div>
      </div>
    </AppLayout>
  );
}
