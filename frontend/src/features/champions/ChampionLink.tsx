import { Trans, useLingui } from "@lingui/react/macro";
import { toast } from "@/components/toast";
import { type Champion, championQrUrl } from "./api";
import { whatsappShareUrl } from "./rules";

const shareButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 " +
  "text-sm font-medium text-slate-800 hover:border-brand-600 hover:bg-brand-50";

/** A champion's page to share: its link (to copy), its QR code and a WhatsApp message to their circle. */
export function ChampionLink({
  campaignId,
  campaignTitle,
  champion,
}: {
  campaignId: number;
  campaignTitle: string;
  champion: Champion;
}) {
  const { t } = useLingui();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(champion.page_url);
      toast({ title: t`Link copied.` });
    } catch {
      toast({ title: t`Could not copy the link. Select it and copy it instead.`, variant: "destructive" });
    }
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">
        <Trans>
          Your champion code is <strong className="font-mono">{champion.code}</strong>: givers use it as the
          account number, and what they give counts for you and the campaign.
        </Trans>
      </p>
      <p className="break-all">
        <a href={champion.page_url} className="font-medium text-brand-700 hover:underline">
          {champion.page_url}
        </a>
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={shareButton} onClick={() => void copy()}>
          <Trans>Copy link</Trans>
        </button>
        <a
          className={shareButton}
          href={whatsappShareUrl(t`Please give to ${campaignTitle} through me:`, champion.page_url)}
          target="_blank"
          rel="noopener noreferrer"
        >
          <Trans>Share on WhatsApp</Trans>
        </a>
      </div>
      <img
        src={championQrUrl(campaignId, champion.code)}
        alt={t`QR code of your champion page`}
        width={160}
        height={160}
        className="h-40 w-40 rounded border border-slate-200 bg-white"
      />
    </div>
  );
}
