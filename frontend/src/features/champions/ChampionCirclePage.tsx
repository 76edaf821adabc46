import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { ProgressBar } from "@/components/ProgressBar";
import { toast } from "@/components/toast";
import { useCampaign } from "@/features/campaigns/api";
import { errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime } from "@/lib/kenyaTime";
import { formatKsh } from "@/lib/money";
import { type Circle, useCircle, useRemindCircle } from "./api";
import { ChampionLink } from "./ChampionLink";
import { goalPercent } from "./rules";

/** A champion's own view (the champion, or those who see the campaign's pledges): their page to share,
 * how far they are, who gave through them, and 'Remind my circle' for those who still owe. */
export default function ChampionCirclePage() {
  const params = useParams<{ id?: string; code?: string }>();
  const campaignId = Number(params.id);
  const code = (params.code ?? "").toUpperCase();
  const circle = useCircle(campaignId, code);
  return (
    <AppLayout>
      <main className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-10">
        <Link href={`/campaign/${campaignId}`} className="text-sm font-medium text-brand-700 hover:underline">
          <span aria-hidden="true">← </span>
          <Trans>Back to the campaign</Trans>
        </Link>
        {circle.data ? (
          <CircleView campaignId={campaignId} circle={circle.data} />
        ) : circle.isError ? (
          <PageLoadError message={errorMessage(circle.error)} retry={() => void circle.refetch()} />
        ) : (
          <PageSkeleton />
        )}
      </main>
    </AppLayout>
  );
}

function CircleView({ campaignId, circle }: { campaignId: number; circle: Circle }) {
  const { t, i18n } = useLingui();
  const campaign = useCampaign(campaignId);
  const { champion } = circle;
  const raised = formatKsh(circle.raised);
  const goal = formatKsh(champion.goal);
  return (
    <div className="mt-4 space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>{champion.name}'s circle</Trans>
        </h1>
        {campaign.data && <p className="text-slate-700">{campaign.data.title}</p>}
      </div>
      <section aria-labelledby="circle-progress" className="rounded-xl border border-slate-200 bg-white p-5">
        <h2 id="circle-progress" className="sr-only">
          <Trans>Progress</Trans>
        </h2>
        <p className="text-2xl font-bold text-slate-900">{raised}</p>
        <p className="text-sm text-slate-600">
          <Trans>raised of your {goal} goal</Trans>
        </p>
        <div className="mt-3">
          <ProgressBar
            percent={goalPercent(circle.raised, champion.goal)}
            label={t`Progress towards your goal`}
          />
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-slate-600">
              <Trans>Pledged</Trans>
            </dt>
            <dd className="font-semibold">{formatKsh(circle.pledged)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">
              <Trans>Still owed</Trans>
            </dt>
            <dd className="font-semibold">{formatKsh(circle.owed)}</dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="circle-share" className="rounded-xl border border-slate-200 bg-white p-5">
        <h2 id="circle-share" className="font-semibold text-slate-900">
          <Trans>Your champion page</Trans>
        </h2>
        <div className="mt-3">
          <ChampionLink
            campaignId={campaignId}
            campaignTitle={campaign.data?.title ?? ""}
            champion={champion}
          />
        </div>
      </section>
      <section aria-labelledby="circle-gifts" className="rounded-xl border border-slate-200 bg-white p-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="circle-gifts" className="font-semibold text-slate-900">
            <Trans>Who gave through you</Trans>
          </h2>
          {circle.owed > 0 && <RemindCircleButton campaignId={campaignId} code={champion.code} />}
        </div>
        {circle.gifts.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">
            <Trans>
              Nobody has given through you yet. Share your page with your family, friends and colleagues.
            </Trans>
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100">
            {circle.gifts.map((gift, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the server sends no id (givers are not identified)
              <li key={index} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                <span>
                  <span className="font-medium">{gift.name || t`Anonymous`}</span>
                  <span className="block text-slate-600">
                    {gift.kind === "pledge" ? t`Pledge` : t`Gift`} ·{" "}
                    {formatKenyaDateTime(gift.at, i18n.locale)}
                  </span>
                </span>
                <span className="text-right">
                  <span className="font-semibold">{formatKsh(gift.amount)}</span>
                  {gift.kind === "pledge" && (
                    <span className="block text-slate-600">
                      {gift.owed > 0 ? (
                        <Trans>
                          {formatKsh(gift.paid)} paid, {formatKsh(gift.owed)} owed
                        </Trans>
                      ) : (
                        <Trans>Paid in full</Trans>
                      )}
                    </span>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** One SMS to each who still owes, but those reminded lately or who asked for no reminders. */
function RemindCircleButton({ campaignId, code }: { campaignId: number; code: string }) {
  const { t } = useLingui();
  const remind = useRemindCircle(campaignId, code);
  const onRemind = () =>
    remind.mutate(undefined, {
      onError: (error) => toast({ title: errorMessage(error), variant: "destructive" }),
    });
  const sent = remind.data?.sent ?? 0;
  const skipped = remind.data?.skipped ?? 0;
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        className={`${primaryButton} sm:w-auto`}
        disabled={remind.isPending}
        onClick={onRemind}
      >
        {remind.isPending ? <Trans>Sending...</Trans> : <Trans>Remind my circle</Trans>}
      </button>
      <p role="status" className="text-sm text-slate-700">
        {remind.data &&
          (skipped > 0
            ? t`Reminders sent: ${sent}. Skipped: ${skipped} (reminded lately, or asked for no reminders).`
            : t`Reminders sent: ${sent}.`)}
      </p>
    </div>
  );
}
