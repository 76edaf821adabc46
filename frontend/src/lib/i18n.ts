import { i18n, type Messages } from "@lingui/core";

export const LOCALES = { en: "English", sw: "Kiswahili" } as const;
export type Locale = keyof typeof LOCALES;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && Object.hasOwn(LOCALES, value);
}

// English is the source language: each message carries its English text, compiled at build time
// (see vite.config.ts). Other catalogues load when chosen.
const catalogues: Record<Exclude<Locale, "en">, () => Promise<{ messages: Messages }>> = {
  sw: () => import("../locales/sw/messages.po"),
};
i18n.load("en", {});
i18n.activate("en");
const loaded = new Set<Locale>();

/** Loads the locale's catalogue and activates it: in the browser and in the server's renderer. */
export async function i18nActivate(locale: Locale): Promise<void> {
  if (locale !== "en" && !loaded.has(locale)) {
    const { messages } = await catalogues[locale]();
    i18n.load(locale, messages);
    loaded.add(locale);
  }
  i18n.activate(locale);
}

/**
 * Starts the page in its language with the messages the server's render of it showed (in the page,
 * backend/config/spa.py): the page hydrates at once, without waiting for the whole catalogue.
 */
export function i18nActivateShown(locale: Locale, shown: Messages): void {
  i18n.load(locale, shown);
  i18n.activate(locale);
}

/**
 * Then the rest of the catalogue, once the page shows a message it did not bring (a signed-in header, a
 * dialog): not while the page loads, where evaluating it would block the main thread for nothing shown.
 */
export function catalogueWhenNeeded(locale: Locale): void {
  if (locale === "en" || loaded.has(locale)) return;
  const stop = i18n.on("missing", (event) => {
    if (event.locale !== locale) return;
    stop();
    void catalogues[locale]()
      .then(({ messages }) => {
        i18n.load(locale, messages);
        loaded.add(locale);
      })
      .catch(() => undefined); // the message stays in English
  });
}

/** The page's language from now on: its messages, and <html lang> for screen readers and spelling. */
export async function activateLocale(locale: Locale): Promise<void> {
  await i18nActivate(locale);
  document.documentElement.lang = locale;
}

export { i18n };
