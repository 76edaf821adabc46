import { Trans, useLingui } from "@lingui/react/macro";
import { useRef, useState } from "react";
import { dangerButton, outlineButton } from "@/components/buttonStyles";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { type Campaign, useCloseCampaign } from "./api";

/** On the edit page of an active campaign: its owners close it early, after saying so twice, as it
 * cannot be reopened by them. Its page stays for the pledgers still paying. */
export function CloseCampaignSection({ campaign }: { campaign: Campaign }) {
  const { t } = useLingui();
  const close = useCloseCampaign(campaign.id);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);

  const onConfirm = async () => {
    setBusy(true);
    try {
      await close();
      toast({ title: t`Campaign closed` });
    } catch (error) {
      toast({ title: t`Error`, description: errorMessage(error), variant: "destructive" });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <section
      aria-labelledby="close-campaign-heading"
      className="mt-8 rounded-xl border border-red-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="close-campaign-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Close this campaign early</Trans>
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        <Trans>
          A closed campaign takes no new pledges or donations and leaves Explore. Its page stays, with its
          totals, so those who pledged can still pay. Only an administrator can reopen it.
        </Trans>
      </p>
      {confirming ? (
        <fieldset className="mt-4 flex flex-col gap-2 sm:flex-row">
          <legend className="sr-only">{t`Confirm closing`}</legend>
          <button
            ref={confirmRef}
            type="button"
            className={`${dangerButton} sm:w-auto`}
            disabled={busy}
            onClick={() => void onConfirm()}
          >
            <Trans>Yes, close {campaign.title}</Trans>
          </button>
          <button
            type="button"
            className={outlineButton}
            disabled={busy}
            onClick={() => setConfirming(false)}
          >
            <Trans>Keep it open</Trans>
          </button>
        </fieldset>
      ) : (
        <button
          type="button"
          className={`${dangerButton} mt-4 sm:w-auto`}
          onClick={() => {
            setConfirming(true);
            // Focus follows the question, so keyboard and screen-reader users land on the answer.
            requestAnimationFrame(() => confirmRef.current?.focus());
          }}
        >
          <Trans>Close Campaign</Trans>
        </button>
      )}
    </section>
  );
}
