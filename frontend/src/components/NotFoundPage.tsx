import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import { AppLayout } from "./AppLayout";

export default function NotFoundPage() {
  return (
    <AppLayout>
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <p className="text-6xl font-bold text-brand-700">404</p>
        <h1 className="mt-4 text-2xl font-semibold">
          <Trans>Oops! Page not found</Trans>
        </h1>
        <Link
          href="/"
          className="mt-6 inline-block rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white"
        >
          <Trans>Return to Home</Trans>
        </Link>
      </div>
    </AppLayout>
  );
}
