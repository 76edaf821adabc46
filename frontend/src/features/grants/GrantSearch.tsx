import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { primaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { errorMessage } from "@/lib/api/client";

import { type GrantFilters, NO_FILTERS, useGrantSearch } from "./api";
import { GrantCard } from "./GrantCard";

// Typing searches after a short pause rather than on every key.
const TYPING_PAUSE_MS = 300;

/** The grant search: text and filters, results ranked by fit to the organization profile. */
export function GrantSearch({ onEditProfile }: { onEditProfile(): void }) {
  const { t } = useLingui();
  const [filters, setFilters] = useState<GrantFilters>(NO_FILTERS);
  const [text, setText] = useState("");
  useEffect(() => {
    const timer = setTimeout(
      () => setFilters((current) => (current.q === text ? current : { ...current, q: text })),
      TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [text]);
  const search = useGrantSearch(filters);
  const data = search.data;
  const filtered =
    text !== "" || filters.category !== "" || filters.bracket !== "" || filters.location !== "";
  const count = data?.count ?? 0;

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
            <Trans>Grant Search</Trans>
          </h1>
          <p className="mt-2 text-slate-600">
            <Trans>Grants ranked by how well they fit your organization, best match first.</Trans>
          </p>
        </div>
        <button
          type="button"
          onClick={onEditProfile}
          className="self-start rounded-md px-2 py-1 text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          <Trans>Edit organization profile</Trans>
        </button>
      </div>

      <search aria-label={t`Search grants`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setFilters((current) => ({ ...current, q: text }));
          }}
          className="mt-6 grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4"
        >
          <TextField
            label={t`Search`}
            type="search"
            placeholder={t`Title, funder or keywords`}
            value={text}
            maxLength={100}
            onChange={(event) => setText(event.target.value)}
          />
          <SelectField
            label={t`Category`}
            value={filters.category}
            onChange={(event) =>
              setFilters({ ...filters, category: event.target.value as GrantFilters["category"] })
            }
          >
            <option value="">{t`All categories`}</option>
            {data?.categories.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t`Amount`}
            value={filters.bracket}
            onChange={(event) =>
              setFilters({ ...filters, bracket: event.target.value as GrantFilters["bracket"] })
            }
          >
            <option value="">{t`All amounts`}</option>
            {data?.brackets.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t`Location`}
            value={filters.location}
            onChange={(event) => setFilters({ ...filters, location: event.target.value })}
          >
            <option value="">{t`All locations`}</option>
            {data?.locations.map((location) => (
              <option key={location} value={location}>
                {location}
              </option>
            ))}
          </SelectField>
          {filtered && (
            <button
              type="button"
              onClick={() => {
                setText("");
                setFilters(NO_FILTERS);
              }}
              className="justify-self-start text-sm font-medium text-brand-700 underline-offset-2 hover:underline sm:col-span-2 lg:col-span-4"
            >
              <Trans>Clear search and filters</Trans>
            </button>
          )}
        </form>
      </search>

      {search.isPending ? (
        <LoadingPlaceholder className="mt-6 space-y-4">
          <div className="h-5 w-64 rounded bg-slate-200" />
          <div className="h-56 rounded-xl bg-slate-200" />
          <div className="h-56 rounded-xl bg-slate-200" />
        </LoadingPlaceholder>
      ) : search.isError && !data ? (
        <div className="mt-6 rounded-xl border border-red-200 bg-red-50 p-5" role="alert">
          <p className="text-red-900">{errorMessage(search.error)}</p>
          <button
            type="button"
            className={`${primaryButton} mt-4 sm:w-auto`}
            onClick={() => search.refetch()}
          >
            <Trans>Try again</Trans>
          </button>
        </div>
      ) : (
        <section
          aria-busy={search.isFetching}
          className={search.isPlaceholderData ? "opacity-70" : undefined}
        >
          <p role="status" className="mt-6 font-medium text-slate-800">
            {t`Found ${count} grant(s) matching your criteria`}
          </p>
          {count === 0 ? (
            <p className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
              <Trans>No grants found matching your criteria.</Trans>
            </p>
          ) : (
            <ul className="mt-4 space-y-4">
              {data?.results.map((grant) => (
                <li key={grant.id}>
                  <GrantCard grant={grant} />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
