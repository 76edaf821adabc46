import { Trans, useLingui } from "@lingui/react/macro";
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { toast } from "@/components/toast";
import { DialCode } from "@/features/ussd/DialCode";
import type { Campaign } from "./api";
import { qrCodeUrl, shareLinks } from "./links";

// The team's embed codes load only for them: visitors' first load stays as it was.
const EmbedCodes = lazy(() => import("./EmbedCodes").then((module) => ({ default: module.EmbedCodes })));

const COPIED_MS = 1500;
// The QR code is drawn at three times its size, without smoothing, so the PNG prints sharp.
const QR_PNG_SCALE = 3;

const shareButton =
  "inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 " +
  "text-sm font-medium text-slate-800 hover:border-brand-600 hover:bg-brand-50";

/** Draws the campaign's QR code (SVG) on a canvas and downloads it as a PNG for posters and bulletins. */
async function downloadQrPng(campaignId: number): Promise<void> {
  const image = new Image();
  image.src = qrCodeUrl(campaignId);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth * QR_PNG_SCALE;
  canvas.height = image.naturalHeight * QR_PNG_SCALE;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("canvas");
  context.imageSmoothingEnabled = false;
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("png");
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `campaign-${campaignId}-qr.png`;
  link.click();
  // Give the browser a moment to start the download before the address is freed.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copy Link, the Twitter, Facebook and WhatsApp links, the QR code, and the USSD dial code with its
 * printable poster (active campaigns only); for its team, the code that shows it on their website. */
export function SharePanel({ campaign }: { campaign: Campaign }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const links = shareLinks(campaign.share_url, campaign.title);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(campaign.share_url);
    } catch {
      toast({
        title: t`Could not copy the link`,
        description: campaign.share_url,
        variant: "destructive",
      });
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };

  const downloadQr = () =>
    downloadQrPng(campaign.id).catch(() =>
      toast({
        title: t`Could not create the QR code image. Please try again.`,
        variant: "destructive",
      }),
    );

  return (
    <section
      aria-labelledby="share-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="share-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Share this campaign</Trans>
      </h2>
      <div className="mt-3 grid grid-cols-2 gap-2">
        <button type="button" className={`${shareButton} col-span-2`} onClick={copyLink}>
          {copied ? <Trans>Copied!</Trans> : <Trans>Copy Link</Trans>}
        </button>
        <ShareLink href={links.twitter}>
          <Trans>Twitter</Trans>
        </ShareLink>
        <ShareLink href={links.facebook}>
          <Trans>Facebook</Trans>
        </ShareLink>
        <ShareLink href={links.whatsapp} className="col-span-2">
          <Trans>WhatsApp</Trans>
        </ShareLink>
      </div>
      {/* Announces the copy to screen readers; the button's own text changes for everyone else. */}
      <p className="sr-only" aria-live="polite">
        {copied ? t`Copied!` : ""}
      </p>
      <div className="mt-5 flex flex-col items-center gap-3 border-t border-slate-200 pt-5">
        <img
          src={qrCodeUrl(campaign.id)}
          alt={t`QR code of the link to ${campaign.title}`}
          width={160}
          height={160}
          loading="lazy"
          className="h-40 w-40"
        />
        <button type="button" className={shareButton} onClick={downloadQr}>
          <Trans>Download QR code (PNG)</Trans>
        </button>
      </div>
      <div className="mt-5 flex flex-col items-center gap-3 border-t border-slate-200 pt-5">
        <DialCode campaignId={campaign.id} className="text-center text-sm text-slate-700" />
        <Link href={`/campaign/${campaign.id}/poster`} className={shareButton}>
          <Trans>Print a poster (A4)</Trans>
        </Link>
        <Link href={`/campaign/${campaign.id}/live`} className={shareButton}>
          <Trans>Big screen for a harambee</Trans>
        </Link>
      </div>
      {campaign.viewer_role && (
        <Suspense fallback={null}>
          <EmbedCodes campaign={campaign} />
        </Suspense>
      )}
    </section>
  );
}

function ShareLink({
  href,
  className = "",
  children,
}: {
  href: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a className={`${shareButton} ${className}`} href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="sr-only">
        {" "}
        <Trans>(opens in a new tab)</Trans>
      </span>
    </a>
  );
}
