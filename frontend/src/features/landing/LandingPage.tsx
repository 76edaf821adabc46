import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "wouter";
import { Footer } from "@/components/Footer";
import { LanguageSwitch } from "@/components/LanguageSwitch";
import { Logo } from "@/components/Logo";
import { formatKsh } from "@/lib/money";
import { useSession } from "@/lib/session";
import { useSuccessStories } from "./api";

// Outline icons drawn inline: the landing page ships no images.
const OFFERINGS = [
  {
    title: msg`Pledging Tool`,
    summary: msg`Turn promises into progress: collect and follow up pledges for your next project.`,
    features: [msg`Campaign creation`, msg`Shareable links`, msg`Automated reminders`],
    icon: "M9 12l2 2 4-4M5 4h14a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1Z",
  },
  {
    title: msg`Grant Discovery`,
    summary: msg`Find the grants that fit your mission and keep every application on track.`,
    features: [msg`Grant matching`, msg`Application tracking`, msg`Analytics`],
    icon: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14Zm9 16-4-4",
  },
  {
    title: msg`Crowdfunding`,
    summary: msg`Rally your congregation, friends and community behind a cause online.`,
    features: [msg`Campaign tools`, msg`Social sharing`, msg`Real-time analytics`],
    icon: "M17 20v-2a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v2M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm11 10v-2a4 4 0 0 0-3-3.9M16 2.1a4 4 0 0 1 0 7.8",
  },
];

const button = "inline-flex items-center justify-center rounded-md px-4 py-2 font-medium";

/** The public landing page: its own header, hero, offerings, success stories, banner and footer. */
export default function LandingPage() {
  const { t } = useLingui();
  const { data } = useSession();
  const signedIn = Boolean(data?.user);

  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2"
        >
          <Trans>Skip to content</Trans>
        </a>
        <nav
          className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3"
          aria-label={t`Main`}
        >
          <Link href="/" aria-label={t`Harambee home`}>
            <Logo />
          </Link>
          <div className="flex items-center gap-2">
            <LanguageSwitch className="hidden sm:block" />
            {signedIn ? (
              <Link href="/dashboard" className={`${button} bg-brand-700 text-white hover:bg-brand-800`}>
                <Trans>Dashboard</Trans>
              </Link>
            ) : (
              <>
                <Link
                  href="/signin"
                  className={`${button} border border-brand-700 text-brand-700 hover:bg-brand-50`}
                >
                  <Trans>Sign In</Trans>
                </Link>
                <Link href="/signup" className={`${button} bg-brand-700 text-white hover:bg-brand-800`}>
                  <Trans>Sign Up</Trans>
                </Link>
              </>
            )}
          </div>
        </nav>
      </header>

      <main id="main" className="flex-1">
        <section className="bg-gradient-to-br from-brand-800 via-brand-700 to-brand-600 text-white">
          <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:py-24">
            <h1 className="text-3xl font-bold tracking-tight sm:text-5xl">
              <Trans>Welcome to Harambee</Trans>
            </h1>
            <p className="mt-4 text-lg text-brand-50 sm:text-xl">
              <Trans>We empower organizations to reach their funding goals with smart technology.</Trans>
            </p>
            <p className="mt-3 text-brand-100">
              <Trans>
                Create a free account today and get access to Africa's leading fundraising platform.
              </Trans>
            </p>
            <Link
              href="/signup"
              className={`${button} mt-8 bg-white px-6 py-3 text-lg text-brand-800 shadow hover:bg-brand-50`}
            >
              <Trans>Get Started Now</Trans>
            </Link>
          </div>
        </section>

        <section aria-labelledby="offerings" className="mx-auto max-w-6xl px-4 py-14">
          <h2 id="offerings" className="text-center text-2xl font-bold sm:text-3xl">
            <Trans>Everything you need to raise funds</Trans>
          </h2>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {OFFERINGS.map((offering) => (
              <li key={offering.title.id} className="rounded-xl border border-slate-200 p-6 shadow-sm">
                <svg
                  viewBox="0 0 24 24"
                  className="h-10 w-10 rounded-lg bg-brand-50 p-2 text-brand-700"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                  aria-hidden="true"
                >
                  <path d={offering.icon} />
                </svg>
                <h3 className="mt-4 text-xl font-semibold">{t(offering.title)}</h3>
                <p className="mt-2 text-slate-600">{t(offering.summary)}</p>
                <ul className="mt-4 space-y-2">
                  {offering.features.map((feature) => (
                    <li key={feature.id} className="flex items-center gap-2">
                      <svg
                        viewBox="0 0 24 24"
                        className="h-5 w-5 shrink-0 text-brand-700"
                        fill="none"
                        stroke="currentColor"
                        strokeWidth="3"
                        aria-hidden="true"
                      >
                        <path d="M5 12l5 5L20 7" />
                      </svg>
                      {t(feature)}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>

        <SuccessStories />

        <section className="bg-brand-800 text-white">
          <div className="mx-auto max-w-4xl px-4 py-12 text-center">
            <h2 className="text-2xl font-bold sm:text-3xl">
              <Trans>Africa's Leading Fundraising Platform</Trans>
            </h2>
            <p className="mt-3 text-brand-100">
              <Trans>Churches, ministries and organizations across Kenya raise funds with Harambee.</Trans>
            </p>
          </div>
        </section>
      </main>

      <Footer />
    </div>
  );
}

/** Real campaigns with their real totals, each linking to its page; nothing while none qualifies. */
function SuccessStories() {
  const stories = useSuccessStories();
  if (!stories.data?.length) return null;
  return (
    <section aria-labelledby="stories" className="bg-slate-50">
      <div className="mx-auto max-w-6xl px-4 py-14">
        <h2 id="stories" className="text-center text-2xl font-bold sm:text-3xl">
          <Trans>Success Stories</Trans>
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {stories.data.map((story) => {
            const raised = formatKsh(story.raised_total);
            const goal = formatKsh(story.goal);
            return (
              <li key={story.id} className="flex flex-col rounded-xl bg-white p-6 shadow-sm">
                <p className="text-2xl font-bold text-brand-700">
                  <Trans>{raised} raised</Trans>
                </p>
                <h3 className="mt-2 font-semibold">
                  <Link href={`/campaign/${story.id}`} className="hover:underline">
                    {story.title}
                  </Link>
                </h3>
                <p className="mt-2 text-slate-600">
                  <Trans>
                    {story.organization_name} · {story.category_label} · goal {goal}
                  </Trans>
                </p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
