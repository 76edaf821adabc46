import { Trans, useLingui } from "@lingui/react/macro";
import { useParams } from "wouter";
import { primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { useUssdInfo } from "@/features/ussd/api";
import { errorMessage } from "@/lib/api/client";
import { isNotFound, useCampaign } from "./api";
import { CampaignNotFound } from "./CampaignNotFound";
import { parseCampaignId, qrCodeUrl } from "./links";

/** /campaign/:id/poster: an A4 page to print and pin up: title, QR code, dial string, campaign number
 * and how to pay into the campaign's own accounts. */
export default function PosterPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return (
    <main className="mx-auto w-full max-w-[210mm] bg-white p-6 print:max-w-none print:p-0">
      {id === null ? <CampaignNotFound /> : <PosterLoader id={id} />}
    </main>
  );
}

function PosterLoader({ id }: { id: number }) {
  const campaign = useCampaign(id);
  const ussd = useUssdInfo();
  if (campaign.isError && isNotFound(campaign.error)) return <CampaignNotFound />;
  const error = campaign.error ?? ussd.error;
  if (error) return <PageLoadError message={errorMessage(error)} retry={() => window.location.reload()} />;
  if (!campaign.data || !ussd.data) return <PageSkeleton />;
  return (
    <Poster
      id={id}
      title={campaign.data.title}
      serviceCode={ussd.data.service_code}
      howToPay={campaign.data.payment_instructions.map((instruction) => instruction.summary)}
    />
  );
}

function Poster({
  id,
  title,
  serviceCode,
  howToPay,
}: {
  id: number;
  title: string;
  serviceCode: string;
  /** The campaign's own accounts, one line each (never Harambee's paybill). */
  howToPay: string[];
}) {
  const { t } = useLingui();
  return (
    <article className="flex min-h-[267mm] flex-col items-center gap-6 text-center text-slate-900">
      <button
        type="button"
        className={`${primaryButton} self-end print:hidden`}
        onClick={() => window.print()}
      >
        <Trans>Print poster</Trans>
      </button>
      <h1 className="text-4xl font-bold sm:text-5xl">{title}</h1>
      <img
        src={qrCodeUrl(id)}
        alt={t`QR code of the link to ${title}`}
        width={280}
        height={280}
        className="h-70 w-70"
      />
      <p className="text-xl">
        <Trans>Scan to pledge or give online</Trans>
      </p>
      <section aria-labelledby="poster-dial" className="w-full rounded-2xl border-4 border-brand-700 p-6">
        <h2 id="poster-dial" className="text-2xl font-semibold">
          <Trans>From any phone, no data needed</Trans>
        </h2>
        <p className="mt-4 text-3xl">
          <Trans>
            Dial <strong className="whitespace-nowrap">{serviceCode}</strong>
          </Trans>
        </p>
        <p className="mt-2 text-3xl">
          <Trans>
            Campaign number <strong>{id}</strong>
          </Trans>
        </p>
        <p className="mt-4 text-lg">
          <Trans>Choose 1 to pledge or 4 to give now, then enter {id}.</Trans>
        </p>
      </section>
      {howToPay.length > 0 && (
        <section aria-labelledby="poster-pay" className="text-lg">
          <h2 id="poster-pay" className="font-semibold">
            <Trans>How to pay</Trans>
          </h2>
          <ul>
            {howToPay.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
