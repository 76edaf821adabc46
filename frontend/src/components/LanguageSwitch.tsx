import { useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { activateLocale, isLocale, LOCALES, type Locale } from "@/lib/i18n";
import { saveLanguage } from "@/lib/session";
import { toast } from "./toast";

/** English / Kiswahili: a button for each, so the language changes only when one is pressed. The server
 * remembers the choice: a cookie, and the profile of a signed-in user (their e-mails and SMS follow
 * it); its own messages come in it from then on. */
export function LanguageSwitch({ className = "" }: { className?: string }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();

  const change = async (locale: Locale) => {
    try {
      await activateLocale(locale);
    } catch {
      // The catalogue did not arrive (a dropped connection): stay in the current language.
      toast({
        title: t`Error`,
        description: t`The language could not be loaded. Check your connection and try again.`,
        variant: "destructive",
      });
      return;
    }
    try {
      await saveLanguage(locale);
    } catch (error) {
      toast({ title: t`Error`, description: (error as Error).message, variant: "destructive" });
    }
    // Answers already fetched carry the server's words in the previous language.
    void queryClient.invalidateQueries();
  };

  return (
    <fieldset className={`text-sm ${className}`}>
      <legend className="sr-only">{t`Language`}</legend>
      {Object.keys(LOCALES)
        .filter(isLocale)
        .map((locale) => (
          <button
            key={locale}
            type="button"
            lang={locale}
            aria-pressed={locale === i18n.locale}
            onClick={() => {
              if (locale !== i18n.locale) void change(locale);
            }}
            className="rounded px-2 py-1 underline underline-offset-2 hover:no-underline aria-pressed:font-semibold aria-pressed:no-underline"
          >
            {LOCALES[locale]}
          </button>
        ))}
    </fieldset>
  );
}
