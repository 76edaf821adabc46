import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { CheckboxField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import type { Organization } from "@/features/organizations/api";
import { useOrganizationUpdate } from "@/features/organizations/api";
import { errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";
import { sampleStatementUrl, useStatementPreview, useStatementRun, useStatementsSend } from "./api";

const card = "mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6";

/** Owners and treasurers send every giver of a year their statement of giving; owners say whether the
 * organization is an approved charity (its statements then carry a signature line). */
export function OrganizationStatements({ organization }: { organization: Organization }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={card}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Yearly statements of giving</Trans>
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        <Trans>
          Send every giver of a year their statement: an e-mail with the PDF, and an SMS with a link to it.
        </Trans>
      </p>
      {organization.can_manage_team && <CharityForm organization={organization} />}
      <SendStatements organizationId={organization.id} />
    </section>
  );
}

function CharityForm({ organization }: { organization: Organization }) {
  const { t } = useLingui();
  const update = useOrganizationUpdate(organization.id);
  const [charity, setCharity] = useState(organization.approved_charity);
  const [signatory, setSignatory] = useState(organization.statement_signatory);
  const [registration, setRegistration] = useState(organization.registration_number);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { approved_charity: charity, statement_signatory: signatory, registration_number: registration },
      {
        onSuccess: () => toast({ title: t`The statements' details are saved.` }),
        onError: (failure) => toast({ title: errorMessage(failure) }),
      },
    );
  };
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 grid gap-3">
      <CheckboxField
        label={t`An approved charity: statements carry the registration number and a signature line`}
        checked={charity}
        onChange={(event) => setCharity(event.target.checked)}
      />
      <TextField
        label={t`Registration number`}
        value={registration}
        onChange={(event) => setRegistration(event.target.value)}
      />
      <TextField
        label={t`Who signs the statements`}
        hint={t`For example: Rev. J. Kamau, Treasurer`}
        value={signatory}
        onChange={(event) => setSignatory(event.target.value)}
      />
      <button type="submit" className={`${outlineButton} sm:w-auto`} disabled={update.isPending}>
        <Trans>Save the statements' details</Trans>
      </button>
    </form>
  );
}

function SendStatements({ organizationId }: { organizationId: number }) {
  const { t, i18n } = useLingui();
  const yearId = useId();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear - 1);
  const [previewing, setPreviewing] = useState(false);
  const preview = useStatementPreview(organizationId, year, previewing);
  const send = useStatementsSend(organizationId);
  const [runId, setRunId] = useState<number | null>(null);
  const run = useStatementRun(organizationId, runId);

  const onSend = () =>
    send.mutate(year, {
      onSuccess: (started) => setRunId(started.id),
      onError: (failure) => toast({ title: errorMessage(failure) }),
    });

  return (
    <div className="mt-6 space-y-3">
      <div>
        <label htmlFor={yearId} className="block text-sm font-medium text-slate-900">
          <Trans>Year</Trans>
        </label>
        <select
          id={yearId}
          className="mt-1 min-h-11 rounded-lg border border-slate-300 px-3"
          value={year}
          onChange={(event) => {
            setYear(Number(event.target.value));
            setRunId(null);
          }}
        >
          {[thisYear, thisYear - 1, thisYear - 2].map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="button" className={`${outlineButton} sm:w-auto`} onClick={() => setPreviewing(true)}>
          <Trans>Preview</Trans>
        </button>
        <a
          href={sampleStatementUrl(organizationId, year, i18n.locale)}
          className={`${outlineButton} sm:w-auto`}
        >
          <Trans>A sample statement</Trans>
        </a>
      </div>
      {previewing && preview.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(preview.error, t`The preview could not be loaded. Please try again.`)}
        </p>
      )}
      {previewing && preview.data && (
        <div className="rounded-lg bg-slate-50 p-4 text-sm text-slate-700">
          <p>
            <Trans>
              {preview.data.giver_count} givers gave {formatKsh(preview.data.total)}: {preview.data.by_email}{" "}
              get an e-mail, {preview.data.by_sms} an SMS.
            </Trans>
          </p>
          {preview.data.unreachable.length > 0 && (
            <>
              <p className="mt-2 font-medium">
                <Trans>Nobody can send these givers theirs (no e-mail, no phone):</Trans>
              </p>
              <p className="mt-1">
                {preview.data.unreachable
                  .map((giver) => `${giver.name || t`No name`}: ${formatKsh(giver.total)}`)
                  .join("; ")}
              </p>
            </>
          )}
          <button
            type="button"
            className={`${primaryButton} mt-3 sm:w-auto`}
            onClick={onSend}
            disabled={send.isPending || runId !== null || preview.data.giver_count === 0}
          >
            <Trans>Send the {year} statements</Trans>
          </button>
        </div>
      )}
      {run.data && (
        <p role="status" className="text-sm text-slate-700">
          {run.data.status === "done" ? (
            <Trans>
              Sent: {run.data.emailed_count} e-mails and {run.data.texted_count} SMS to {run.data.giver_count}{" "}
              givers.
            </Trans>
          ) : (
            <Trans>
              Sending: {run.data.processed_count} of {run.data.giver_count} givers.
            </Trans>
          )}
        </p>
      )}
    </div>
  );
}
