import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { useFees } from "@/features/payments/api";
import { formatKsh } from "@/lib/money";

const STEPS = [
  {
    title: msg`Create your campaign`,
    text: msg`Sign up for free, tell your story, set a goal and choose how supporters can pay.`,
  },
  {
    title: msg`Share it`,
    text: msg`Send your campaign link on WhatsApp, social media, e-mail or from the pulpit.`,
  },
  {
    title: msg`Collect pledges`,
    text: msg`Supporters pledge or give in Kenyan shillings by M-Pesa, bank transfer or cash.`,
  },
  {
    title: msg`Track and confirm`,
    text: msg`Follow every pledge on your dashboard and confirm payments as they arrive.`,
  },
];

const BENEFITS = [
  {
    title: msg`The money goes to you`,
    text: msg`Pledges and donations are paid into your organization's own accounts.`,
  },
  {
    title: msg`Built for Kenya`,
    text: msg`Amounts in Ksh and the payment methods your community already uses.`,
  },
  {
    title: msg`Works on any phone`,
    text: msg`Light pages that load fast, even on a slow connection.`,
  },
  {
    title: msg`Transparent progress`,
    text: msg`Everyone sees how close the campaign is to its goal.`,
  },
];

/** Public explainer: four steps, four benefits, and the way in. */
export default function HowItWorksPage() {
  const { t } = useLingui();
  return (
    <AppLayout>
      <div className="mx-auto max-w-5xl px-4 py-12">
        <h1 className="text-center text-3xl font-bold sm:text-4xl">
          <Trans>How it works</Trans>
        </h1>
        <p className="mx-auto mt-3 max-w-2xl text-center text-lg text-slate-600">
          <Trans>Raise funds for your church, ministry or organization in four simple steps.</Trans>
        </p>

        <section aria-labelledby="steps" className="mt-12">
          <h2 id="steps" className="sr-only">
            <Trans>Steps</Trans>
          </h2>
          <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {STEPS.map((step, index) => (
              <li key={step.title.id} className="rounded-xl border border-slate-200 p-6 shadow-sm">
                <span
                  aria-hidden="true"
                  className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white"
                >
                  {index + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold">{t(step.title)}</h3>
                <p className="mt-2 text-slate-600">{t(step.text)}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="benefits" className="mt-14">
          <h2 id="benefits" className="text-center text-2xl font-bold">
            <Trans>Why Harambee</Trans>
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2">
            {BENEFITS.map((benefit) => (
              <li key={benefit.title.id} className="rounded-xl bg-brand-50 p-6">
                <h3 className="text-lg font-semibold text-brand-800">{t(benefit.title)}</h3>
                <p className="mt-2 text-slate-700">{t(benefit.text)}</p>
              </li>
            ))}
          </ul>
        </section>

        <Costs />

        <div className="mt-14 flex flex-col justify-center gap-3 sm:flex-row">
          <Link
            href="/pledge/create-campaign"
            className="rounded-md bg-brand-700 px-6 py-3 text-center font-medium text-white hover:bg-brand-800"
          >
            <Trans>Start a Campaign</Trans>
          </Link>
          <Link
            href="/explore"
            className="rounded-md border border-brand-700 px-6 py-3 text-center font-medium text-brand-700 hover:bg-brand-50"
          >
            <Trans>Explore Campaigns</Trans>
          </Link>
        </div>
      </div>
    </AppLayout>
  );
}

/** What is free and what costs what: the prices come from the server, as the payment dialogs state them. */
function Costs() {
  const fees = useFees();
  const activation = fees.data ? formatKsh(fees.data.campaign_activation_fee) : "…";
  const subscription = fees.data ? formatKsh(fees.data.subscription_fee) : "…";
  const days = fees.data?.subscription_period_days ?? 365;
  const item = "rounded-xl border border-slate-200 p-6";
  return (
    <section aria-labelledby="costs" className="mt-14">
      <h2 id="costs" className="text-center text-2xl font-bold">
        <Trans>What it costs</Trans>
      </h2>
      <ul className="mt-8 grid gap-6 sm:grid-cols-3">
        <li className={item}>
          <h3 className="text-lg font-semibold">
            <Trans>Free</Trans>
          </h3>
          <p className="mt-2 text-slate-600">
            <Trans>
              Signing up, writing and sharing campaigns, pledge management, reminders and receipts. Pledging
              and giving cost supporters nothing beyond their usual M-Pesa or bank charges.
            </Trans>
          </p>
        </li>
        <li className={item}>
          <h3 className="text-lg font-semibold">
            <Trans>Campaign activation: {activation}</Trans>
          </h3>
          <p className="mt-2 text-slate-600">
            <Trans>
              Once per pledge campaign, to make it public so it can take pledges and donations. Subscribers'
              campaigns are activated without it.
            </Trans>
          </p>
        </li>
        <li className={item}>
          <h3 className="text-lg font-semibold">
            <Trans>Grantfunding AI: {subscription}</Trans>
          </h3>
          <p className="mt-2 text-slate-600">
            <Trans>For {days} days of grant search and matching. It does not renew by itself.</Trans>
          </p>
        </li>
      </ul>
      <p className="mx-auto mt-6 max-w-2xl text-center text-slate-700">
        <Trans>
          Every payment window states the amount and what it buys before any M-Pesa PIN prompt. Pledge and
          donation money goes to your organization's own accounts.
        </Trans>
      </p>
    </section>
  );
}
