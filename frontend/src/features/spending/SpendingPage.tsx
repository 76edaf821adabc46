import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { isNotFound } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId } from "@/features/campaigns/links";
import { errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import { type Accountability, useAccountability } from "./api";
import { FigureList } from "./Figures";
import { MoneyChart } from "./MoneyChart";

/**
 * /campaign/{id}/spending: how the money was used, for every giver. Rendered on the server with its
 * data (backend/config/spa.py): raised, platform fees, spent by category, what is left, the chart, each
 * line that counts (a private person's name masked by the server) with its receipt when published, and
 * the team's progress updates.
 */
export default function SpendingPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return <AppLayout>{id === null ? <CampaignNotFound /> : <SpendingLoader id={id} />}</AppLayout>;
}

function SpendingLoader({ id }: { id: number }) {
  const accountability = useAccountability(id);
  if (accountability.isError && isNotFound(accountability.error)) return <CampaignNotFound />;
  if (accountability.error) {
    return (
      <PageLoadError
        message={errorMessage(accountability.error)}
        retry={() => void accountability.refetch()}
      />
    );
  }
  if (!accountability.data) return <PageSkeleton />;
  return <Spending data={accountability.data} />;
}

function Spending({ data }: { data: Accountability }) {
  const { figures } = data;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-8">
      <header className="flex flex-col gap-2">
        <Link href={`/campaign/${data.campaign_id}`} className="text-sm text-brand-700 underline">
          {data.title}
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">
          <Trans>How the money was used</Trans>
        </h1>
        <p className="text-slate-700">
          <Trans>
            The church paid these from its own accounts; each line was recorded by one of its treasurers and
            approved by a second.
          </Trans>
        </p>
      </header>
      <FigureList figures={figures} />
      <MoneyChart chart={figures.chart} />
      {figures.spent_by_category.length > 0 && (
        <section aria-labelledby="by-category">
          <h2 id="by-category" className="text-lg font-semibold text-slate-900">
            <Trans>Spent by category</Trans>
          </h2>
          <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {figures.spent_by_category.map((row) => (
              <li key={row.key} className="flex justify-between px-4 py-2">
                <span>{row.label}</span>
                <span className="font-medium">{formatKsh(row.amount)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Lines data={data} />
      <Updates data={data} />
    </div>
  );
}

function Lines({ data }: { data: Accountability }) {
  const { i18n } = useLingui();
  return (
    <section aria-labelledby="lines">
      <h2 id="lines" className="text-lg font-semibold text-slate-900">
        <Trans>What was paid</Trans>
      </h2>
      {data.lines.length === 0 ? (
        <p className="mt-2 text-slate-700">
          <Trans>Nothing has been spent yet.</Trans>
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {data.lines.map((line) => (
            <li key={line.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:justify-between">
              <div>
                <p className="font-medium text-slate-900">{line.payee}</p>
                <p className="text-sm text-slate-700">
                  {new Date(line.spent_on).toLocaleDateString(i18n.locale)} · {line.category_label}
                  {line.note && ` · ${line.note}`}
                </p>
                {line.receipt_url && (
                  <a href={line.receipt_url} className="text-sm text-brand-700 underline">
                    <Trans>Receipt</Trans>
                  </a>
                )}
              </div>
              <p className="font-semibold text-slate-900">{formatKsh(line.amount)}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Updates({ data }: { data: Accountability }) {
  const { i18n } = useLingui();
  if (data.updates.length === 0) return null;
  return (
    <section aria-labelledby="updates">
      <h2 id="updates" className="text-lg font-semibold text-slate-900">
        <Trans>Progress updates</Trans>
      </h2>
      <ul className="mt-2 flex flex-col gap-3">
        {data.updates.map((update) => (
          <li key={update.id} className="rounded-lg border border-slate-200 bg-white p-4">
            <p className="text-sm text-slate-700">
              {new Date(update.posted_at).toLocaleDateString(i18n.locale)}
            </p>
            <p className="mt-1 whitespace-pre-line text-slate-900">{update.text}</p>
            {update.photo_urls.map((url) => (
              <img key={url} src={url} alt="" className="mt-2 max-h-64 rounded" loading="lazy" />
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
