import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Link } from "wouter";
import { toast } from "@/components/toast";
import { useEmbedOrigins } from "@/features/organizations/api";
import type { Campaign } from "./api";
import { embedSnippets } from "./links";

const codeClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-slate-50 p-2 font-mono text-xs text-slate-800";

/** For the campaign's team: the code that shows the campaign on the church's website (config/embed.py),
 * in three forms to copy, the embed's language, and the websites allowed to show it. */
export function EmbedCodes({ campaign }: { campaign: Campaign }) {
  const { t, i18n } = useLingui();
  const [language, setLanguage] = useState<"en" | "sw">(i18n.locale === "sw" ? "sw" : "en");
  const origins = useEmbedOrigins(campaign.organization_id);
  const snippets = embedSnippets(window.location.origin, campaign.id, campaign.title, language);
  const forms = [
    { key: "script", label: t`With a script (sized to its content)`, code: snippets.script },
    { key: "iframe", label: t`Without scripts (a frame)`, code: snippets.iframe },
    { key: "button", label: t`A "Give" button only (opens the donate page)`, code: snippets.button },
  ] as const;

  const copy = async (code: string) => {
    try {
      await navigator.clipboard.writeText(code);
      toast({ title: t`Code copied.` });
    } catch {
      toast({ title: t`Could not copy the code. Select it and copy it yourself.`, variant: "destructive" });
    }
  };

  return (
    <div className="mt-5 border-t border-slate-200 pt-5" data-testid="embed-codes">
      <h3 className="font-semibold text-slate-900">
        <Trans>Show it on your website</Trans>
      </h3>
      <fieldset className="mt-2">
        <legend className="text-sm text-slate-700">
          <Trans>Language of the embed</Trans>
        </legend>
        <div className="flex gap-4">
          {(["en", "sw"] as const).map((choice) => (
            <label key={choice} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="embed-language"
                value={choice}
                checked={language === choice}
                onChange={() => setLanguage(choice)}
              />
              {choice === "en" ? "English" : "Kiswahili"}
            </label>
          ))}
        </div>
      </fieldset>
      {forms.map((form) => (
        <div key={form.key} className="mt-3">
          <label htmlFor={`embed-${form.key}`} className="text-sm font-medium text-slate-800">
            {form.label}
          </label>
          <textarea
            id={`embed-${form.key}`}
            readOnly
            rows={3}
            className={codeClass}
            value={form.code}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button
            type="button"
            className="mt-1 text-sm font-medium text-brand-700 underline"
            onClick={() => copy(form.code)}
          >
            <Trans>Copy code</Trans>
            <span className="sr-only"> {form.label}</span>
          </button>
        </div>
      ))}
      <p className="mt-3 text-sm text-slate-700">
        {origins.data && origins.data.length > 0 ? (
          <Trans>Allowed websites: {origins.data.map((origin) => origin.origin).join(", ")}.</Trans>
        ) : (
          <Trans>No website is allowed to show it yet: an owner adds yours first.</Trans>
        )}{" "}
        <Link
          href={`/organizations/${campaign.organization_id}`}
          className="font-medium text-brand-700 underline"
        >
          <Trans>Websites in the organization's settings</Trans>
        </Link>
      </p>
    </div>
  );
}
