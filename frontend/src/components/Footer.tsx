import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "wouter";
import { kenyaDate } from "@/lib/kenyaTime";
import { LanguageSwitch } from "./LanguageSwitch";
import { Logo } from "./Logo";

const SOCIAL_LINKS = [
  {
    name: "Facebook",
    href: "https://www.facebook.com/",
    path: "M14 8h3V4h-3c-2.8 0-4 1.7-4 4.5V11H7v4h3v9h4v-9h3l1-4h-4V8.8c0-.5.3-.8 1-.8Z",
  },
  {
    name: "X (Twitter)",
    href: "https://x.com/",
    path: "M4 4h4.5l4 5.6L17.3 4H20l-6.3 7.2L21 20h-4.5l-4.4-6-5.2 6H4l6.9-7.8Z",
  },
  {
    name: "Instagram",
    href: "https://www.instagram.com/",
    path: "M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4Zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm5.5-2a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z",
  },
];

export function Footer() {
  const { t } = useLingui();
  // The year in Kenya, without an Intl formatter (lib/numbers.ts says what one costs a page).
  const year = kenyaDate(new Date()).slice(0, 4);
  return (
    <footer className="print:hidden border-t border-slate-200 bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3">
        <div>
          <Logo />
          <p className="mt-3 text-sm">
            <Trans>Amplify Your Ministry with Digital Innovation</Trans>
          </p>
          <ul className="mt-4 flex gap-3" aria-label={t`Social media`}>
            {SOCIAL_LINKS.map((link) => (
              <li key={link.name}>
                <a
                  href={link.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="block rounded p-1 hover:text-white"
                >
                  <span className="sr-only">{link.name}</span>
                  <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor" aria-hidden="true">
                    <path d={link.path} />
                  </svg>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="font-semibold text-white">
            <Trans>About</Trans>
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link href="/how-it-works" className="hover:text-white hover:underline">
                <Trans>How it works</Trans>
              </Link>
            </li>
            <li>
              <Trans>Featured</Trans>
            </li>
            <li>
              <Trans>Partnership</Trans>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="font-semibold text-white">
            <Trans>Community</Trans>
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Trans>Events</Trans>
            </li>
            <li>
              <Trans>Blog</Trans>
            </li>
            <li>
              <Trans>Invite a friend</Trans>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-700">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-4 text-sm sm:flex-row sm:justify-between">
          <p>
            <Trans>© {year} Harambee. All Rights Reserved</Trans>
          </p>
          <LanguageSwitch />
          <p className="flex gap-4">
            <Link href="/privacy" className="hover:text-white hover:underline">
              <Trans>Privacy Policy</Trans>
            </Link>
            <a
              href="/static/terms-of-use.html"
              target="_blank"
              rel="noopener"
              className="hover:text-white hover:underline"
            >
              <Trans>Terms of Use</Trans>
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
