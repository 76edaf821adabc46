import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "wouter";
import { primaryButton, secondaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage, type Schemas } from "@/lib/api/client";

import { type Grant, SEARCH_KEY, saveApplication } from "./api";
import { formatDate, formatUsd } from "./format";

type ApplicationState = Schemas["GrantApplicationOut"]["state"];

export function GrantCard({ grant }: { grant: Grant }) {
  const { t } = useLingui();
  const titleId = useId();
  const score = grant.match_score;
  return (
    <article
      aria-labelledby={titleId}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {grant.title}
          </h2>
          <p className="text-sm text-slate-600">
            {grant.organization}
            {grant.is_sample && (
              <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">
                <Trans>Sample</Trans>
              </span>
            )}
          </p>
        </div>
        <p className="shrink-0 rounded-lg bg-brand-50 px-3 py-1.5 text-brand-800">
          <Trans>
            <span className="text-xl font-bold">{score}%</span> match
          </Trans>
        </p>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-600">
            <Trans>Amount</Trans>
          </dt>
          <dd className="text-base font-semibold text-slate-900">{formatUsd(grant.amount_usd)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">
            <Trans>Deadline</Trans>
          </dt>
          <dd className={grant.past_deadline ? "font-medium text-red-800" : "font-medium text-slate-900"}>
            {formatDate(grant.deadline)}
            {grant.past_deadline && (
              <span className="ml-1 inline-block rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-800">
                <Trans>Deadline passed</Trans>
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">
            <Trans>Category</Trans>
          </dt>
          <dd className="font-medium text-slate-900">{grant.category_label}</dd>
        </div>
        <div>
          <dt className="text-slate-600">
            <Trans>Location</Trans>
          </dt>
          <dd className="font-medium text-slate-900">{grant.location}</dd>
        </div>
      </dl>

      <p className="mt-4 text-slate-700">{grant.description}</p>

      {grant.match_reasons.length > 0 && (
        <ul aria-label={t`Why it matches`} className="mt-4 flex flex-wrap gap-2">
          {grant.match_reasons.map((reason) => (
            <li key={reason} className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-800">
              {reason}
            </li>
          ))}
        </ul>
      )}

      {grant.is_sample ? (
        // A sample has nowhere to apply: this site's page says so.
        <Link href={grant.apply_url} className={`${primaryButton} mt-5 sm:w-auto`}>
          <Trans>Apply Now</Trans>
        </Link>
      ) : (
        <a
          href={grant.apply_url}
          target="_blank"
          rel="noopener noreferrer"
          className={`${primaryButton} mt-5 sm:w-auto`}
        >
          <Trans>Apply Now</Trans>
          <span className="sr-only"> {t`(opens in a new tab)`}</span>
        </a>
      )}

      <ApplicationTracker grant={grant} />
    </article>
  );
}

/** Where the user stands with this grant, with a note; kept on the server for them alone. */
function ApplicationTracker({ grant }: { grant: Grant }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const savedState = grant.application_state ?? "";
  const [state, setState] = useState(savedState);
  const [note, setNote] = useState(grant.application_note);
  const changed = state !== savedState || note.trim() !== grant.application_note;
  const labels: Record<ApplicationState, string> = {
    saved: t`Saved`,
    applied: t`Applied`,
    awarded: t`Awarded`,
    declined: t`Declined`,
  };

  const save = useMutation({
    mutationFn: () => saveApplication(grant.id, { state, note }),
    onSuccess: (application) => {
      setNote(application.note);
      toast({ title: t`Application status saved.` });
      void queryClient.invalidateQueries({ queryKey: SEARCH_KEY });
    },
    onError: (error) =>
      toast({
        title: t`Error`,
        description: errorMessage(error),
        variant: "destructive",
      }),
  });

  return (
    <form
      aria-label={t`Track this grant`}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
      className="mt-5 grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-[12rem_1fr_auto] sm:items-end"
    >
      <SelectField
        label={t`Application status`}
        value={state}
        onChange={(event) => setState(event.target.value as ApplicationState)}
      >
        <option value="" disabled>
          {t`Not tracked yet`}
        </option>
        {Object.entries(labels).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t`Note`}
        value={note}
        maxLength={1000}
        placeholder={t`e.g. Sent the proposal on 3 March`}
        onChange={(event) => setNote(event.target.value)}
      />
      <button
        type="submit"
        disabled={!state || !changed || save.isPending}
        className={`${secondaryButton} sm:w-auto disabled:cursor-not-allowed disabled:opacity-50`}
      >
        {save.isPending ? <Trans>Saving...</Trans> : <Trans>Save</Trans>}
      </button>
    </form>
  );
}
