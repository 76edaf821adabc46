import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton } from "@/components/buttonStyles";
import { TextField } from "@/components/TextField";
import { errorMessage } from "@/lib/api/client";
import { useCampaignCategories, useExploreCampaigns } from "./api";
import { CampaignCard, CampaignCardSkeleton } from "./CampaignCard";
import { type ExploreFilters, exploreSearch } from "./links";

const SEARCH_DELAY_MS = 300;
// The cards of the first row (three on wide screens) are in view at once: their covers load eagerly.
const FIRST_ROW = 3;

export default function ExplorePage() {
  const { t } = useLingui();
  // The filters live in the URL (?q=&category=) so that a search can be shared or bookmarked.
  const [params, setParams] = useSearchParams();
  const filters: ExploreFilters = { q: params.get("q") ?? "", category: params.get("category") ?? "" };
  const setFilters = useCallback(
    (next: Partial<ExploreFilters>) =>
      setParams(
        (current) =>
          exploreSearch({ q: current.get("q") ?? "", category: current.get("category") ?? "", ...next }),
        { replace: true },
      ),
    [setParams],
  );

  const [text, setText] = useState(filters.q);
  // Follow the URL when it changes from outside (the header's Explore link, back and forward).
  const [urlQuery, setUrlQuery] = useState(filters.q);
  if (urlQuery !== filters.q) {
    setUrlQuery(filters.q);
    if (text.trim() !== filters.q) setText(filters.q);
  }
  // Search once the visitor pauses typing.
  useEffect(() => {
    if (text.trim() === filters.q) return;
    const timer = setTimeout(() => setFilters({ q: text }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filters.q, setFilters]);

  const categories = useCampaignCategories();
  const campaigns = useExploreCampaigns(filters);
  const total = campaigns.data?.pages[0]?.total ?? 0;
  const items = campaigns.data?.pages.flatMap((page) => page.campaigns) ?? [];

  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-6xl px-4 py-8">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
          <Trans>Explore Campaigns</Trans>
        </h1>
        <p className="mt-1 text-slate-600">
          <Trans>Find a cause you care about and make a pledge.</Trans>
        </p>

        <search className="mt-6 space-y-4">
          <TextField
            label={t`Search campaigns`}
            type="search"
            placeholder={t`Search by title or description`}
            value={text}
            maxLength={100}
            onChange={(event) => setText(event.target.value)}
            className="max-w-xl"
          />
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-slate-800">
              <Trans>Category</Trans>
            </legend>
            <div className="flex flex-wrap gap-2">
              {categories.data?.explore.map((category) => {
                const selected = category.value === filters.category;
                return (
                  <button
                    key={category.value}
                    type="button"
                    aria-pressed={selected}
                    onClick={() => setFilters({ category: category.value })}
                    className={`rounded-full border px-4 py-1.5 text-sm font-medium ${
                      selected
                        ? "border-brand-700 bg-brand-700 text-white"
                        : "border-slate-300 bg-white text-slate-700 hover:border-brand-600"
                    }`}
                  >
                    {category.label}
                  </button>
                );
              })}
            </div>
          </fieldset>
        </search>

        <div className="mt-8">
          {campaigns.isPending ? (
            <div role="status" aria-busy="true">
              <span className="sr-only">
                <Trans>Loading campaigns...</Trans>
              </span>
              <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {Array.from({ length: 6 }, (_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
                  <CampaignCardSkeleton key={index} />
                ))}
              </ul>
            </div>
          ) : campaigns.isError && items.length === 0 ? (
            <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-center">
              <p className="text-red-900">{errorMessage(campaigns.error, t`Failed to load campaigns.`)}</p>
              <button
                type="button"
                className={`${primaryButton} mt-4 sm:w-auto`}
                onClick={() => campaigns.refetch()}
              >
                <Trans>Try again</Trans>
              </button>
            </div>
          ) : items.length === 0 ? (
            <div className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
              <h2 className="text-lg font-semibold text-slate-900">
                <Trans>No campaigns found</Trans>
              </h2>
              <p className="mt-1 text-slate-600">
                <Trans>Try adjusting your search or filters</Trans>
              </p>
            </div>
          ) : (
            <>
              <p className="mb-4 text-sm text-slate-600" aria-live="polite">
                <Plural value={total} one="# campaign" other="# campaigns" />
              </p>
              <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {items.map((campaign, index) => (
                  <CampaignCard key={campaign.id} campaign={campaign} aboveTheFold={index < FIRST_ROW} />
                ))}
              </ul>
              {campaigns.isFetchNextPageError && (
                <p role="alert" className="mt-6 text-center text-red-800">
                  {errorMessage(campaigns.error, t`Failed to load campaigns.`)}
                </p>
              )}
              {campaigns.hasNextPage && (
                <div className="mt-8 text-center">
                  <button
                    type="button"
                    className={`${primaryButton} sm:w-auto`}
                    disabled={campaigns.isFetchingNextPage}
                    onClick={() => campaigns.fetchNextPage()}
                  >
                    {campaigns.isFetchingNextPage ? <Trans>Loading...</Trans> : <Trans>Load more</Trans>}
                  </button>
                </div>
              )}
            </>
          )}
        </div>
      </div>
    </AppLayout>
  );
}
