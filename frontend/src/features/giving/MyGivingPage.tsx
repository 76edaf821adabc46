import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { profileOptions } from "@/features/accounts/api";
import { PhoneVerification } from "@/features/accounts/PhoneVerification";
import { errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import {
  type GivingGift,
  type GivingPledge,
  type MyGiving,
  myGivingOptions,
  statementUrl,
  useRefreshMyGiving,
} from "./api";

const card = "mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6";

/** My giving: every pledge and gift of the signed-in person across organizations and channels (web,
 * USSD, SMS, the desk, card, M-Pesa, standing orders), found by what they gave signed in and, once
 * their phone number is verified, by that number; and their statement of a year as a PDF. It gathers
 * more than My pledges, which stays the place to claim phone pledges into the account. */
export default function MyGivingPage() {
  const { t } = useLingui();
  const giving = useQuery(myGivingOptions());

  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-3xl px-4 py-8">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>My giving</Trans>
        </h1>
        <p className="mt-2 text-sm text-slate-700">
          <Trans>Your pledges and gifts to every organization, however you gave.</Trans>
        </p>
        {giving.isPending ? (
          <PageSkeleton />
        ) : giving.isError ? (
          <PageLoadError
            message={errorMessage(giving.error, t`Your giving could not be loaded. Please try again.`)}
            retry={() => void giving.refetch()}
          />
        ) : (
          <>
            {!giving.data.verified_phone && <VerifyPhone />}
            <Pledges pledges={giving.data.pledges} />
            <Gifts gifts={giving.data.gifts} />
            <Statement giving={giving.data} />
          </>
        )}
      </div>
    </AppLayout>
  );
}

function VerifyPhone() {
  const headingId = useId();
  const profile = useQuery(profileOptions());
  const refresh = useRefreshMyGiving();
  return (
    <section aria-labelledby={headingId} className={card}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Find what you gave from your phone</Trans>
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        <Trans>
          Pledged by USSD or SMS, at an event's desk, or gave by M-Pesa? Verify your phone number and they
          appear here. We only show them once you prove the number is yours.
        </Trans>
      </p>
      {profile.data ? (
        profile.data.phone ? (
          <div className="mt-3">
            <PhoneVerification user={profile.data} onVerified={() => void refresh()} />
          </div>
        ) : (
          <p className="mt-2 text-sm text-slate-700">
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
    </section>
  );
}

function ChannelName({ channel }: { channel: GivingPledge["channel"] }) {
  switch (channel) {
    case "ussd":
      return <Trans>by USSD</Trans>;
    case "sms":
      return <Trans>by SMS</Trans>;
    case "desk":
      return <Trans>at an event's desk</Trans>;
    default:
      return <Trans>online</Trans>;
  }
}

function Pledges({ pledges }: { pledges: GivingPledge[] }) {
  const headingId = useId();
  const { i18n } = useLingui();
  return (
    <section aria-labelledby={headingId} className={card}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Pledges</Trans>
      </h2>
      {pledges.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          <Trans>No pledges found.</Trans>
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {pledges.map((pledge) => (
            <li
              key={pledge.code}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between"
            >
              <div className="min-w-0 text-sm text-slate-700">
                <p className="font-medium text-slate-900">{pledge.campaign_title}</p>
                <p>
                  {pledge.organization_name} · <ChannelName channel={pledge.channel} /> · <Trans>code</Trans>{" "}
                  {pledge.code}
                  {pledge.is_anonymous && (
                    <>
                      {" "}
                      · <Trans>anonymous to the public</Trans>
                    </>
                  )}
                </p>
                <p>
                  <Trans>
                    Pledged {formatKsh(pledge.amount)}, paid {formatKsh(pledge.paid_amount)}, left{" "}
                    {formatKsh(pledge.remaining_amount)}
                  </Trans>
                </p>
                {pledge.next_instalment && (
                  <p>
                    <Trans>
                      Next instalment: {formatKsh(pledge.next_instalment.amount)} on{" "}
                      {new Date(pledge.next_instalment.due_on).toLocaleDateString(i18n.locale)}
                    </Trans>
                    {pledge.pays_automatically && (
                      <>
                        {" "}
                        (<Trans>paid by standing order</Trans>)
                      </>
                    )}
                  </p>
                )}
              </div>
              {pledge.remaining_amount > 0 && (
                <Link href={pledge.pay_url} className={`${primaryButton} shrink-0 sm:w-auto`}>
                  <Trans>Pay {formatKsh(pledge.due_now)}</Trans>
                  <span className="sr-only"> {pledge.campaign_title}</span>
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-3 text-sm text-slate-700">
        <Trans>
          Pledges made by USSD or SMS can also be added to your account on{" "}
          <Link href="/my-pledges" className="font-medium text-brand-800 underline">
            My pledges
          </Link>
          .
        </Trans>
      </p>
    </section>
  );
}

function MethodName({ method }: { method: GivingGift["method"] }) {
  switch (method) {
    case "card":
      return <Trans>Card</Trans>;
    case "cash":
      return <Trans>Cash</Trans>;
    case "bank":
      return <Trans>Bank transfer</Trans>;
    default:
      return <Trans>M-Pesa</Trans>;
  }
}

function Gifts({ gifts }: { gifts: GivingGift[] }) {
  const headingId = useId();
  const { i18n } = useLingui();
  return (
    <section aria-labelledby={headingId} className={card}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Gifts</Trans>
      </h2>
      {gifts.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          <Trans>No gifts found.</Trans>
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {gifts.map((gift) => (
            <li key={`${gift.receipt_number}-${gift.given_at}`} className="py-3 text-sm text-slate-700">
              <p className="font-medium text-slate-900">
                {gift.campaign_title}: {formatKsh(gift.amount)}
              </p>
              <p>
                {gift.organization_name} · <MethodName method={gift.method} />
                {gift.mpesa_receipt && <> {gift.mpesa_receipt}</>} ·{" "}
                {new Date(gift.given_at).toLocaleDateString(i18n.locale)}
                {gift.is_anonymous && (
                  <>
                    {" "}
                    · <Trans>anonymous to the public</Trans>
                  </>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Statement({ giving }: { giving: MyGiving }) {
  const headingId = useId();
  const yearId = useId();
  const { i18n } = useLingui();
  const thisYear = new Date().getFullYear();
  const years = giving.years.length > 0 ? giving.years : [thisYear];
  const [year, setYear] = useState(years[0] ?? thisYear);
  return (
    <section aria-labelledby={headingId} className={card}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Statement of giving</Trans>
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        <Trans>
          A PDF of your payments in a year, per organization and in total, with each payment's date, method
          and M-Pesa code: for your employer's matching scheme, your family or your tax return.
        </Trans>
      </p>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div>
          <label htmlFor={yearId} className="block text-sm font-medium text-slate-900">
            <Trans>Year</Trans>
          </label>
          <select
            id={yearId}
            className="mt-1 min-h-11 rounded-lg border border-slate-300 px-3"
            value={year}
            onChange={(event) => setYear(Number(event.target.value))}
          >
            {years.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <a href={statementUrl(year, i18n.locale)} download className={`${primaryButton} sm:w-auto`}>
          <Trans>Download the statement</Trans>
        </a>
      </div>
    </section>
  );
}
