import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useId, useState } from "react";
import { Link, useLocation } from "wouter";
import { helpHref } from "@/lib/helpPages";
import { isLocale } from "@/lib/i18n";
import { useSession, useSignOut } from "@/lib/session";
import { LanguageSwitch } from "./LanguageSwitch";
import { Logo } from "./Logo";
import { useEscapeKey } from "./useEscapeKey";

const navLink = "rounded px-3 py-2 font-medium text-slate-700 hover:bg-brand-50 hover:text-brand-800";

/** The header on app pages: logo, Explore, Start a Campaign, and the account menu or Sign In. */
export function AppHeader() {
  const { t, i18n } = useLingui();
  const { data } = useSession();
  const user = data?.user ?? null;
  const [path] = useLocation();
  // The guide page for this page, in its language: signed-in pages only (docs/guide, served at /docs/).
  const help = user ? helpHref(path, isLocale(i18n.locale) ? i18n.locale : "en") : null;
  const signOut = useSignOut();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  const mobileMenuId = useId();
  const accountMenuId = useId();

  const close = useCallback(() => {
    setMobileOpen(false);
    setAccountOpen(false);
  }, []);
  useEscapeKey(mobileOpen || accountOpen, close);

  const links = (
    <>
      <Link href="/explore" className={navLink} onClick={close}>
        <Trans>Explore Campaigns</Trans>
      </Link>
      <Link href="/pledge/create-campaign" className={navLink} onClick={close}>
        <Trans>Start a Campaign</Trans>
      </Link>
    </>
  );

  const accountLinks = user ? (
    <>
      <Link href="/dashboard" className={navLink} onClick={close}>
        <Trans>Dashboard</Trans>
      </Link>
      <Link href="/organizations" className={navLink} onClick={close}>
        <Trans>Organizations</Trans>
      </Link>
      <Link href="/my-pledges" className={navLink} onClick={close}>
        <Trans>My pledges</Trans>
      </Link>
      <Link href="/my-giving" className={navLink} onClick={close}>
        <Trans>My giving</Trans>
      </Link>
      <Link href="/profile" className={navLink} onClick={close}>
        <Trans>Profile</Trans>
      </Link>
      <button
        type="button"
        className={`${navLink} text-left`}
        onClick={() => {
          close();
          void signOut();
        }}
      >
        <Trans>Sign Out</Trans>
      </button>
    </>
  ) : null;

  return (
    <header className="sticky top-0 z-30 print:hidden border-b border-slate-200 bg-white/95 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2"
      >
        <Trans>Skip to content</Trans>
      </a>
      <nav className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3" aria-label={t`Main`}>
        <Link href={user ? "/dashboard" : "/"} aria-label={t`Harambee home`}>
          <Logo />
        </Link>

        <div className="flex items-center gap-1">
          {help && (
            <a href={help} className={navLink}>
              <Trans>Help</Trans>
            </a>
          )}
          <div className="hidden items-center gap-1 md:flex">
            {links}
            {user ? (
              <div className="relative">
                <button
                  type="button"
                  className={navLink}
                  aria-expanded={accountOpen}
                  aria-controls={accountMenuId}
                  onClick={() => setAccountOpen((open) => !open)}
                >
                  <Trans>Welcome, {user.display_name}</Trans> ▾
                </button>
                {accountOpen && (
                  <div
                    id={accountMenuId}
                    className="absolute right-0 mt-1 flex w-48 flex-col rounded-md border border-slate-200 bg-white p-1 shadow-lg"
                  >
                    {accountLinks}
                  </div>
                )}
              </div>
            ) : (
              <Link
                href="/signin"
                className="ml-2 rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
              >
                <Trans>Sign In</Trans>
              </Link>
            )}
            <LanguageSwitch className="ml-2" />
          </div>

          <button
            type="button"
            className="rounded p-2 md:hidden"
            aria-expanded={mobileOpen}
            aria-controls={mobileMenuId}
            aria-label={mobileOpen ? t`Close menu` : t`Open menu`}
            onClick={() => setMobileOpen((open) => !open)}
          >
            <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true">
              <path
                d={mobileOpen ? "M6 6l12 12M18 6L6 18" : "M4 6h16M4 12h16M4 18h16"}
                stroke="currentColor"
                strokeWidth="2"
              />
            </svg>
          </button>
        </div>
      </nav>
      {mobileOpen && (
        <div id={mobileMenuId} className="flex flex-col gap-1 border-t border-slate-200 px-4 py-3 md:hidden">
          {links}
          {user ? (
            <>
              <p className="px-3 pt-2 text-sm text-slate-500">
                <Trans>Welcome, {user.display_name}</Trans>
              </p>
              {accountLinks}
            </>
          ) : (
            <Link href="/signin" className={navLink} onClick={close}>
              <Trans>Sign In</Trans>
            </Link>
          )}
          <LanguageSwitch className="px-3 pt-2" />
        </div>
      )}
    </header>
  );
}
