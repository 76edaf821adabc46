import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { toast } from "@/components/toast";
import { profileOptions } from "@/features/accounts/api";
import { PhoneVerification } from "@/features/accounts/PhoneVerification";
import { errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import {
  type AccountPledge,
  type AccountPledges,
  accountPledgesOptions,
  useClaimPledges,
  useRefreshAccountPledges,
} from "./api";
import { PledgeStatusBadge } from "./PledgeStatusBadge";

const card = "mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6";

/** The signed-in user's pledges, and claiming those they made by USSD or SMS: once their phone number
 * is verified with a one-time code, the pledges made from it by phone can be added to the account. */
export default function MyPledgesPage() {
  const { t } = useLingui();
  const mine = useQuery(accountPledgesOptions());

  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-2xl px-4 py-8">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>My pledges</Trans>
        </h1>
        <p className="mt-2 text-sm text-slate-700">
          <Trans>
            Every pledge and gift of yours, to every organization, and your yearly statement:{" "}
            <Link href="/my-giving" className="font-medium text-brand-800 underline">
              My giving
            </Link>
            .
          </Trans>
        </p>
        {mine.isPending ? (
          <PageSkeleton />
        ) : mine.isError ? (
          <PageLoadError
            message={errorMessage(mine.error, t`Your pledges could not be loaded. Please try again.`)}
            retry={() => void mine.refetch()}
          />
        ) : (
          <>
            <PhonePledges mine={mine.data} />
            <OwnPledges pledges={mine.data.pledges} />
          </>
        )}
      </div>
    </AppLayout>
  );
}

function PhonePledges({ mine }: { mine: AccountPledges }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={card}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Pledges made from your phone</Trans>
      </h2>
      {mine.verified_phone ? (
        mine.claimable.length > 0 ? (
          <ClaimForm phone={mine.verified_phone} claimable={mine.claimable} />
        ) : (
          <p className="mt-2 text-sm text-slate-700">
            <Trans>
              No pledges made by USSD or SMS from {mine.verified_phone} are waiting to be added to your
              account.
            </Trans>
          </p>
        )
      ) : (
        <VerifyFirst />
      )}
    </section>
  );
}

function VerifyFirst() {
  const profile = useQuery(profileOptions());
  const refresh = useRefreshAccountPledges();
  return (
    <div className="mt-2 space-y-3">
      <p className="text-sm text-slate-700">
        <Trans>
          Pledged by dialling the USSD code or by SMS? Verify your phone number and the pledges made from it
          can be added to your account. We only show them once you prove the number is yours.
        </Trans>
      </p>
      {profile.data ? (
        profile.data.phone ? (
          <PhoneVerification user={profile.data} onVerified={() => void refresh()} />
        ) : (
          <p className="text-sm text-slate-700">
            <Trans>
              First add your phone number to your{" "}
              <Link href="/profile" className="font-medium text-brand-800 underline">
                profile
              </Link>
              .
            </Trans>
          </p>
        )
      ) : null}
    </div>
  );
}

function ClaimForm({ phone, claimable }: { phone: string; claimable: AccountPledge[] }) {
  const { t } = useLingui();
  const claim = useClaimPledges();
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(claimable.map((pledge) => pledge.code)));
  const [error, setError] = useState("");

  const toggle = (code: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(code);
      else next.delete(code);
      return next;
    });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError("");
    try {
      const codes = claimable.map((pledge) => pledge.code).filter((code) => chosen.has(code));
      await claim.mutateAsync(codes);
      toast({ title: t`The pledges are now in your account.` });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <form noValidate onSubmit={submit} className="mt-2 space-y-4">
      <fieldset>
        <legend className="text-sm text-slate-700">
          <Plural
            value={claimable.length}
            one={`# pledge was made by USSD or SMS from ${phone}. Add it to your account?`}
            other={`# pledges were made by USSD or SMS from ${phone}. Choose those to add to your account.`}
          />
        </legend>
        <ul className="mt-3 space-y-2">
          {claimable.map((pledge) => (
            <li key={pledge.code}>
              <label className="flex min-h-11 cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3">
                <input
                  type="checkbox"
                  className="mt-1 size-5 shrink-0"
                  checked={chosen.has(pledge.code)}
                  onChange={(event) => toggle(pledge.code, event.target.checked)}
                />
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{pledge.campaign_title}</span>
                  <span className="block text-sm text-slate-700">
                    <Trans>
                      {formatKsh(pledge.amount)}, code {pledge.code}, left to pay{" "}
                      {formatKsh(pledge.remaining_amount)}
                    </Trans>
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button
        type="submit"
        className={`${primaryButton} sm:w-auto`}
        disabled={claim.isPending || chosen.size === 0}
      >
        <Trans>Add to my account</Trans>
      </button>
    </form>
  );
}

function OwnPledges({ pledges }: { pledges: AccountPledge[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={card}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Your pledges</Trans>
      </h2>
      {pledges.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          <Trans>You have no pledges in your account yet.</Trans>
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {pledges.map((pledge) => (
            <li
              key={pledge.code}
              className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <Link href={`/pledges/${pledge.code}`} className="font-medium text-brand-800 underline">
                  {pledge.campaign_title}
                </Link>
                <p className="text-sm text-slate-700">
                  {pledge.cancelled ? (
                    <Trans>
                      {formatKsh(pledge.amount)}, code {pledge.code}: cancelled by the organizer
                    </Trans>
                  ) : (
                    <Trans>
                      {formatKsh(pledge.amount)}, code {pledge.code}, paid {formatKsh(pledge.paid_amount)}
                    </Trans>
                  )}
                </p>
              </div>
              {!pledge.cancelled && <PledgeStatusBadge status={pledge.status} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
