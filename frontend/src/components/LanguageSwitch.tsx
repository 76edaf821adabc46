import { useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { api, unwrap } from "@/lib/api/client";
import { activateLocale, isLocale, LOCALES, type Locale } from "@/lib/i18n";
import { toast } from "./toast";

/** English / Kiswahili. The server remembers the choice: a cookie, and the profile of a signed-in
 * user (their e-mails and SMS follow it); its own messages come in it from then on. */
export function LanguageSwitch({ className = "" }: { className?: string }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const queryClient = useQueryClient();

  const change = async (locale: Locale) => {
    await activateLocale(locale);
    try {
      unwrap(
        await api.PUT("/api/auth/language", { body: { language: locale } }),
        t`An unexpected error occurred. Please try again.`,
      );
    } catch (error) {
      toast({ title: t`Error`, description: (error as Error).message, variant: "destructive" });
    }
    // Answers already fetched carry the server's words in the previous language.
    void queryClient.invalidateQueries();
  };

  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {t`Language`}
      </label>
      <select
        id={id}
        value={i18n.locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) void change(event.target.value);
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      >
        {Object.entries(LOCALES).map(([code, name]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
