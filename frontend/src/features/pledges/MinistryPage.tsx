import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton, secondaryButton } from "@/components/buttonStyles";
import { toast } from "@/components/toast";
import { useCampaign } from "@/features/campaigns/api";
import { formatKsh } from "@/lib/money";
import { useMinistryCampaignId } from "./api";
import { CampaignSummary, CampaignSummarySkeleton } from "./CampaignSummary";
import { useCopied } from "./useCopied";

const URL_COPIED_MS = 2000;

/** /icc-imara-donate: the story of one church ministry, with Donate, Pledge and a copy-the-address button. */
export default function MinistryPage() {
  const ministry = useMinistryCampaignId();
  return (
    <AppLayout>
      <article className="mx-auto w-full max-w-6xl px-4 py-6 sm:py-10">
        <header className="rounded-2xl bg-brand-800 px-5 py-8 text-white sm:px-10 sm:py-12">
          <p className="text-sm font-semibold tracking-wide text-brand-100 uppercase">
            <Trans>ICC Imara · Imara Daima, Nairobi</Trans>
          </p>
          <h1 className="mt-2 text-3xl font-bold sm:text-4xl">
            <Trans>Building our church home, together</Trans>
          </h1>
          <p className="mt-3 max-w-2xl text-lg text-brand-50">
            <Trans>
              For ten years we have worshipped in borrowed halls and under tents. This year, with your help,
              we finish the house God has given us on Mombasa Road.
            </Trans>
          </p>
        </header>
        <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <Story />
          <aside className="-order-1 space-y-4 lg:sticky lg:top-20 lg:order-none lg:self-start">
            {ministry.isError ? (
              <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
                <Trans>Giving to this ministry is not open right now. Please try again later.</Trans>
              </p>
            ) : (
              <GiveCard campaignId={ministry.data} />
            )}
            <CopyPageUrl />
          </aside>
        </div>
      </article>
    </AppLayout>
  );
}

function GiveCard({ campaignId }: { campaignId: number | undefined }) {
  return (
    <div className="space-y-4">
      {campaignId === undefined ? <CampaignSummarySkeleton /> : <MinistryCampaign id={campaignId} />}
      <div className="grid gap-2">
        {campaignId === undefined ? (
          <span className={`${primaryButton} opacity-60`} aria-hidden="true">
            <Trans>Donate</Trans>
          </span>
        ) : (
          <>
            <Link href={`/campaign/${campaignId}/donate`} className={primaryButton}>
              <Trans>Donate</Trans>
            </Link>
            <Link href={`/campaign/${campaignId}/pledge`} className={secondaryButton}>
              <Trans>Pledge</Trans>
            </Link>
          </>
        )}
      </div>
    </div>
  );
}

function MinistryCampaign({ id }: { id: number }) {
  const campaign = useCampaign(id);
  return campaign.data ? <CampaignSummary campaign={campaign.data} /> : <CampaignSummarySkeleton />;
}

function CopyPageUrl() {
  const { t } = useLingui();
  const { copied, copy } = useCopied(URL_COPIED_MS);
  const copyUrl = async () => {
    const url = window.location.href;
    if (!(await copy(url)))
      toast({ title: t`Could not copy the link`, description: url, variant: "destructive" });
  };
  return (
    <div>
      <button
        type="button"
        onClick={() => void copyUrl()}
        className="w-full rounded-md border border-slate-300 bg-white px-4 py-2.5 font-medium text-slate-800 hover:border-brand-600 hover:bg-brand-50"
      >
        {copied ? <Trans>URL Copied!</Trans> : <Trans>Copy page URL</Trans>}
      </button>
      <p className="sr-only" aria-live="polite">
        {copied ? t`URL Copied!` : ""}
      </p>
      <p className="mt-2 text-center text-sm text-slate-600">
        <Trans>Share it in your family and church WhatsApp groups.</Trans>
      </p>
    </div>
  );
}

function Story() {
  const cement = formatKsh(500);
  const sheet = formatKsh(1000);
  const chair = formatKsh(2500);
  const pane = formatKsh(5000);
  const heading = "mt-8 text-xl font-semibold text-slate-900 first:mt-0";
  return (
    <div className="space-y-4 text-lg leading-relaxed text-slate-800">
      <h2 className={heading}>
        <Trans>Where we began</Trans>
      </h2>
      <p>
        <Trans>
          ICC Imara started in 2015 as a Wednesday fellowship of twelve people in a sitting room in Imara
          Daima. We sang softly so as not to disturb the neighbours, shared chai and mandazi after the Word,
          and prayed for one another's jobs, exams and families.
        </Trans>
      </p>
      <p>
        <Trans>
          Ten years later more than five hundred of us gather every Sunday in a rented hall beside the
          railway. Our Sunday school meets under a tent that floods in the long rains, and every week we pack
          the chairs and the sound system into a pickup before the hall's owner locks up.
        </Trans>
      </p>

      <h2 className={heading}>
        <Trans>The home God has given us</Trans>
      </h2>
      <p>
        <Trans>
          In 2022 a family in our congregation gave the church a quarter-acre plot off Mombasa Road. Members
          brought what they could: a mason gave his Saturdays, a hardware owner gave cement at cost, the youth
          carried blocks by hand. The foundation and the walls are up. What remains is the roof, the windows,
          the floor and a sound system, so that by next Easter we can worship in our own home.
        </Trans>
      </p>

      <h2 className={heading}>
        <Trans>More than a sanctuary</Trans>
      </h2>
      <p>
        <Trans>
          This building will be open all week. On weekdays it will host a daycare for mothers who trade at the
          Imara Daima market, so that their little ones are safe and fed while they work. In the evenings
          young people will come for computer classes and homework support. A quiet counselling room will
          welcome families going through loss, debt or conflict, with our trained volunteers and a visiting
          counsellor.
        </Trans>
      </p>
      <p>
        <Trans>
          When the floods came in 2024, our tent became a collection point for blankets and unga for families
          in Mukuru. With a roof over our heads we can do that and more, in every season.
        </Trans>
      </p>

      <h2 className={heading}>
        <Trans>What your gift builds</Trans>
      </h2>
      <ul className="list-disc space-y-1 pl-6">
        <li>
          <Trans>{cement} buys a bag of cement for the floor.</Trans>
        </li>
        <li>
          <Trans>{sheet} buys an iron sheet for the roof.</Trans>
        </li>
        <li>
          <Trans>{chair} buys two strong chairs for the daycare and the evening classes.</Trans>
        </li>
        <li>
          <Trans>{pane} fits a window that lets in the morning light.</Trans>
        </li>
      </ul>

      <h2 className={heading}>
        <Trans>Give today or make a pledge</Trans>
      </h2>
      <p>
        <Trans>
          In the spirit of harambee, no gift is too small. Donate now by M-Pesa or card, or make a pledge
          (your ahadi) and pay it in instalments as God provides: every M-Pesa payment made with your pledge
          code is matched to your pledge automatically, so you always know what you have given and what
          remains.
        </Trans>
      </p>
      <blockquote className="border-l-4 border-brand-600 bg-brand-50 p-4 text-slate-800 italic">
        <p>
          <Trans>
            "Unless the Lord builds the house, the builders labour in vain." We have seen the Lord build this
            house one bag of cement at a time, through faithful people like you. Thank you for building with
            us.
          </Trans>
        </p>
        <footer className="mt-2 text-base font-medium not-italic text-slate-700">
          <Trans>Pastor Daniel Mwangi, ICC Imara</Trans>
        </footer>
      </blockquote>
    </div>
  );
}
