import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";

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
    title: msg`Free to start`,
    text: msg`Create an account and set up your first campaign at no cost.`,
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
