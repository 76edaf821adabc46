import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton, secondaryButton } from "@/components/buttonStyles";

/** /fundraiser-success: shown after the legacy wizard when no campaign id came back. */
export default function FundraiserSuccessPage() {
  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-xl px-4 py-12 text-center sm:py-16">
        <div
          aria-hidden="true"
          className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-green-100 text-3xl text-green-700"
        >
          ✓
        </div>
        <h1 className="mt-6 text-2xl font-bold text-slate-900 sm:text-3xl">
          <Trans>Your fundraiser was successfully created!</Trans>
        </h1>
        <p className="mt-4 text-slate-700">
          <Trans>Our support will contact you soon.</Trans>
        </p>
        <p className="mt-2 text-slate-700">
          <Trans>Welcome to the Harambee family: together we reach every goal.</Trans>
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Link href="/" className={`${secondaryButton} sm:w-auto`}>
            <Trans>Back to Home</Trans>
          </Link>
          <Link href="/dashboard" className={`${primaryButton} sm:w-auto`}>
            <Trans>Go to Dashboard</Trans>
          </Link>
        </div>
      </div>
    </AppLayout>
  );
}
