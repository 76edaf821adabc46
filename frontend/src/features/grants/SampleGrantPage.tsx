import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton } from "@/components/buttonStyles";

/** /grantfunding/sample-grant: where a sample grant's 'Apply Now' leads, instead of a made-up address. */
export default function SampleGrantPage() {
  return (
    <AppLayout>
      <div className="mx-auto max-w-xl px-4 py-16">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>This grant is a sample</Trans>
        </h1>
        <p className="mt-4 text-slate-700">
          <Trans>
            Grants marked "Sample" show how Grantfunding AI searches, matches and tracks grants. They are not
            real funding opportunities and cannot be applied for.
          </Trans>
        </p>
        <p className="mt-3 text-slate-700">
          <Trans>Real grants added by our staff lead to their own application pages.</Trans>
        </p>
        <Link href="/grantfunding" className={`${primaryButton} mt-6 sm:w-auto`}>
          <Trans>Back to grants</Trans>
        </Link>
      </div>
    </AppLayout>
  );
}
