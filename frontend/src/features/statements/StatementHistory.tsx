import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { dangerButton, outlineButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime } from "@/lib/kenyaTime";
import { type StatementImport, useStatementImports, useStatementUndo } from "./api";
import { card, Figures } from "./parts";

export function History({ organizationId }: { organizationId: number }) {
  const { t } = useLingui();
  const imports = useStatementImports(organizationId);
  const done = imports.data?.filter((statementImport) => statementImport.status !== "previewed") ?? [];
  return (
    <section aria-labelledby="history-heading" className={`${card} space-y-4`}>
      <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Imported statements</Trans>
      </h2>
      {imports.isError ? (
        <PageLoadError
          message={errorMessage(imports.error, t`Could not load the imported statements.`)}
          retry={() => void imports.refetch()}
        />
      ) : !imports.data ? (
        <LoadingPlaceholder className="h-24" />
      ) : done.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>No statement imported yet.</Trans>
        </p>
      ) : (
        <ul className="space-y-4">
          {done.map((statementImport) => (
            <ImportedStatement
              key={statementImport.id}
              organizationId={organizationId}
              statementImport={statementImport}
            />
          ))}
        </ul>
      )}
      <p className="text-sm">
        <Link href={`/organizations/${organizationId}`} className="text-brand-700 underline">
          <Trans>Back to the organization</Trans>
        </Link>
      </p>
    </section>
  );
}

function ImportedStatement({
  organizationId,
  statementImport,
}: {
  organizationId: number;
  statementImport: StatementImport;
}) {
  const { t, i18n } = useLingui();
  const undo = useStatementUndo(organizationId);
  const [undoing, setUndoing] = useState(false);
  const [reason, setReason] = useState("");
  const when = (iso: string | null) => (iso ? formatKenyaDateTime(iso, i18n.locale) : "");
  const headingId = `import-${statementImport.id}`;
  const reasonError = undo.error instanceof ApiRequestError ? undo.error.fieldErrors.reason : undefined;
  const onUndo = (event: FormEvent) => {
    event.preventDefault();
    undo.mutate(
      { importId: statementImport.id, reason },
      { onSuccess: () => toast({ title: t`Import undone: its payments were reversed.` }) },
    );
  };
  return (
    <li aria-labelledby={headingId} className="rounded-md border border-slate-200 p-4">
      <h3 id={headingId} className="font-medium text-slate-900">
        {statementImport.file_name || t`Statement`} · {statementImport.account_label}
      </h3>
      <p className="text-sm text-slate-600">
        {statementImport.status === "undone" ? (
          <Trans>
            Undone {when(statementImport.undone_at)}: {statementImport.undo_reason}
          </Trans>
        ) : (
          <Trans>Imported {when(statementImport.confirmed_at)}</Trans>
        )}
      </p>
      <div className="mt-3">
        <Figures statementImport={statementImport} />
      </div>
      {statementImport.status === "confirmed" &&
        (undoing ? (
          <form onSubmit={onUndo} className="mt-3 space-y-3" noValidate>
            <TextField
              label={t`Why undo this import?`}
              hint={t`Every payment it recorded is reversed; its pledges count them no more.`}
              value={reason}
              error={reasonError}
              onChange={(event) => setReason(event.target.value)}
              required
            />
            {undo.isError && !reasonError && (
              <p role="alert" className="text-sm text-red-700">
                {errorMessage(undo.error)}
              </p>
            )}
            <div className="flex flex-col gap-3 sm:flex-row">
              <button type="submit" className={`${dangerButton} sm:w-auto`} disabled={undo.isPending}>
                <Trans>Undo the import</Trans>
              </button>
              <button type="button" className={outlineButton} onClick={() => setUndoing(false)}>
                <Trans>Keep it</Trans>
              </button>
            </div>
          </form>
        ) : (
          <button type="button" className={`${outlineButton} mt-3`} onClick={() => setUndoing(true)}>
            <Trans>Undo import…</Trans>
          </button>
        ))}
    </li>
  );
}
