import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { CheckboxField, SelectField } from "@/components/FieldControls";
import { PageLoadError } from "@/components/PageLoadError";
import { LoadingPlaceholder } from "@/components/PageSkeleton";
import { toast } from "@/components/toast";
import { formatCalendarDate } from "@/features/campaigns/links";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime, kenyaDate } from "@/lib/kenyaTime";
import { formatKsh } from "@/lib/money";
import { parseRouteId } from "@/lib/routeId";
import {
  BANK_KINDS,
  type BankColumns,
  type BankColumnsChoice,
  type CollectionAccount,
  type StatementImport,
  type StatementRow,
  useBankColumns,
  useStatementAccounts,
  useStatementConfirm,
  useStatementUpload,
} from "./api";
import { card, Figures, useCategoryNames } from "./parts";
import { History } from "./StatementHistory";

// The preview lists this many rows; the figures above it count them all.
const ROWS_SHOWN = 200;

function accountName(account: CollectionAccount): string {
  const number =
    account.kind === "till"
      ? account.till_number
      : account.kind === "bank"
        ? `${account.bank_name} ${account.account_number}`
        : account.kind === "paybill_fixed_account"
          ? `${account.paybill_number} / ${account.account_number}`
          : account.paybill_number;
  return account.label ? `${account.label} (${number})` : number;
}

const isBankKind = (kind: string) => (BANK_KINDS as readonly string[]).includes(kind);

/**
 * /orgs/{id}/statements, for the organization's owners and treasurers (the server answers 403 or 404 to
 * anyone else): upload an M-Pesa or bank statement (a bank's after choosing its columns), read what each row
 * would do, confirm, and undo a whole import.
 */
export default function StatementImportPage() {
  const organizationId = parseRouteId(useParams<{ organization?: string }>().organization);
  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Import a statement</Trans>
          </h1>
          <p className="mt-2 text-slate-700">
            <Trans>
              Upload the statement your M-Pesa Org Portal or your bank exports (CSV or Excel). You see what
              each payment will do before anything is recorded; payments already recorded are never counted
              twice.
            </Trans>
          </p>
        </div>
        {organizationId === null ? (
          <p>
            <Trans>Organization not found.</Trans>
          </p>
        ) : (
          <StatementImports organizationId={organizationId} />
        )}
      </div>
    </AppLayout>
  );
}

export function StatementImports({ organizationId }: { organizationId: number }) {
  const [preview, setPreview] = useState<StatementImport | null>(null);
  return (
    <>
      {preview ? (
        <Preview organizationId={organizationId} preview={preview} onDone={() => setPreview(null)} />
      ) : (
        <UploadForm organizationId={organizationId} onPreview={setPreview} />
      )}
      <History organizationId={organizationId} />
    </>
  );
}

function UploadForm({
  organizationId,
  onPreview,
}: {
  organizationId: number;
  onPreview: (preview: StatementImport) => void;
}) {
  const { t } = useLingui();
  const fileId = useId();
  const accounts = useStatementAccounts(organizationId);
  const upload = useStatementUpload(organizationId);
  const bankColumns = useBankColumns(organizationId);
  const [accountId, setAccountId] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const [choice, setChoice] = useState<BankColumnsChoice | null>(null);
  const sent = bankColumns.isError ? bankColumns : upload;
  const errors = sent.error instanceof ApiRequestError ? sent.error.fieldErrors : {};
  const chosenAccount = accountId ?? accounts.data?.[0]?.id ?? null;
  const isBank = isBankKind(accounts.data?.find((account) => account.id === chosenAccount)?.kind ?? "");
  const fileError = (missing && !file ? t`Choose the statement file to upload.` : undefined) ?? errors.file;

  if (accounts.isError) {
    return (
      <PageLoadError
        message={errorMessage(accounts.error, t`Could not load this organization's accounts.`)}
        retry={() => void accounts.refetch()}
      />
    );
  }
  if (!accounts.data) return <LoadingPlaceholder className="h-48" />;
  if (accounts.data.length === 0) {
    return (
      <p className={card}>
        <Trans>This organization has no M-Pesa paybill or till nor bank account yet: add one first.</Trans>
      </p>
    );
  }
  if (choice && file && chosenAccount !== null) {
    return (
      <ColumnsForm
        choice={choice}
        file={file}
        pending={upload.isPending}
        error={upload.isError ? errorMessage(upload.error) : undefined}
        onBack={() => {
          upload.reset();
          setChoice(null);
        }}
        onPreview={(columns) =>
          upload.mutate({ accountId: chosenAccount, file, columns }, { onSuccess: onPreview })
        }
      />
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setMissing(true);
    if (!file || chosenAccount === null) return;
    upload.reset();
    bankColumns.reset();
    if (isBank) bankColumns.mutate({ accountId: chosenAccount, file }, { onSuccess: setChoice });
    else upload.mutate({ accountId: chosenAccount, file }, { onSuccess: onPreview });
  };
  const pending = upload.isPending || bankColumns.isPending;
  return (
    <form onSubmit={onSubmit} className={`${card} space-y-4`} noValidate aria-labelledby="upload-heading">
      <h2 id="upload-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Upload</Trans>
      </h2>
      <SelectField
        label={t`Statement of`}
        value={chosenAccount ?? ""}
        error={errors.account_id}
        onChange={(event) => setAccountId(Number(event.target.value))}
      >
        {accounts.data.map((account) => (
          <option key={account.id} value={account.id}>
            {accountName(account)}
          </option>
        ))}
      </SelectField>
      <div>
        <label htmlFor={fileId} className="mb-1 block text-sm font-medium text-slate-800">
          <Trans>Statement file</Trans>
        </label>
        <input
          id={fileId}
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          aria-invalid={fileError ? true : undefined}
          aria-describedby={`${fileId}-hint${fileError ? ` ${fileId}-error` : ""}`}
          className="block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        <p id={`${fileId}-hint`} className="mt-1 text-sm text-slate-600">
          <Trans>CSV or Excel (.xlsx), at most 20 MB.</Trans>
        </p>
        {fileError && (
          <p id={`${fileId}-error`} role="alert" className="mt-1 text-sm text-red-700">
            {fileError}
          </p>
        )}
      </div>
      {sent.isError && !errors.file && !errors.account_id && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(sent.error)}
        </p>
      )}
      <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={pending}>
        {pending ? t`Reading the statement…` : isBank ? t`Choose the columns` : t`Preview`}
      </button>
    </form>
  );
}

type ColumnField = keyof BankColumns;

/**
 * The bank statement's columns: which holds the date, the money in (and out), the reference and the
 * description, each chosen from the file's header; the account's choice of last time comes selected.
 */
function ColumnsForm({
  choice,
  file,
  pending,
  error,
  onBack,
  onPreview,
}: {
  choice: BankColumnsChoice;
  file: File;
  pending: boolean;
  error?: string;
  onBack: () => void;
  onPreview: (columns: BankColumns) => void;
}) {
  const { t } = useLingui();
  const [columns, setColumns] = useState<BankColumns>(choice.columns);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const fields: { field: ColumnField; label: string; hint?: string; optional: boolean }[] = [
    { field: "date", label: t`Date`, optional: false },
    {
      field: "amount",
      label: t`Money in`,
      hint: t`The Credit column, or the Amount column when the bank has one column for both.`,
      optional: false,
    },
    {
      field: "debit",
      label: t`Money out`,
      hint: t`The Debit column; none when amounts carry a sign.`,
      optional: true,
    },
    { field: "reference", label: t`Reference`, optional: true },
    { field: "description", label: t`Description`, optional: true },
  ];
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onPreview(columns);
  };
  const fileName = file.name;
  return (
    <form onSubmit={onSubmit} className={`${card} space-y-4`} noValidate aria-labelledby="columns-heading">
      <h2 id="columns-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900">
        <Trans>Columns of {fileName}</Trans>
      </h2>
      <p className="text-sm text-slate-700">
        {choice.remembered ? (
          <Trans>
            The columns chosen last time for this account are selected. Change them if the bank's changed.
          </Trans>
        ) : (
          <Trans>
            Say which column holds what; this account remembers it for its next statement. Pledge codes are
            looked for in the reference and the description.
          </Trans>
        )}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.map(({ field, label, hint, optional }) => (
          <SelectField
            key={field}
            label={label}
            hint={hint}
            value={columns[field] ?? ""}
            onChange={(event) => setColumns({ ...columns, [field]: event.target.value })}
          >
            <option value="">{optional ? t`None` : t`Choose a column`}</option>
            {choice.header.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </SelectField>
        ))}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row">
        <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={pending}>
          {pending ? t`Reading the statement…` : t`Preview`}
        </button>
        <button type="button" className={outlineButton} onClick={onBack}>
          <Trans>Back</Trans>
        </button>
      </div>
    </form>
  );
}

function RowOutcome({ row }: { row: StatementRow }) {
  const names = useCategoryNames();
  if (row.category === "matched") {
    const beyond = formatKsh(row.beyond_pledge);
    return (
      <>
        <Trans>
          Pledge {row.pledge_code} ({row.campaign_title})
        </Trans>
        {row.beyond_pledge > 0 && (
          <span className="block text-amber-800">
            <Trans>Pays {beyond} beyond the pledge's amount</Trans>
          </span>
        )}
      </>
    );
  }
  if (row.category === "unmatched" && row.near_codes.length > 0) {
    const codes = row.near_codes.join(", ");
    return <Trans>Unmatched: perhaps {codes}</Trans>;
  }
  return <>{names[row.category]}</>;
}

function Preview({
  organizationId,
  preview,
  onDone,
}: {
  organizationId: number;
  preview: StatementImport;
  onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const confirm = useStatementConfirm(organizationId);
  const [sendReceipts, setSendReceipts] = useState(false);
  const shown = preview.rows.slice(0, ROWS_SHOWN);
  const isBank = isBankKind(preview.account_kind);
  const matched = preview.figures.matched?.rows ?? 0;
  const unmatched = preview.figures.unmatched?.rows ?? 0;
  const onConfirm = () =>
    confirm.mutate(
      { importId: preview.id, sendReceipts },
      {
        onSuccess: () => {
          toast({ title: t`Statement imported: ${matched} payments credited, ${unmatched} unmatched.` });
          onDone();
        },
      },
    );
  return (
    <section aria-labelledby="preview-heading" className={`${card} space-y-4`}>
      <h2 id="preview-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Preview: {preview.file_name}</Trans>
      </h2>
      <p className="text-sm text-slate-700">
        <Trans>
          Nothing is recorded until you confirm. Matched payments are credited to their pledges; unmatched
          ones wait in "Unmatched payments" in Pledge Management; the rest change nothing.
        </Trans>
      </p>
      <Figures statementImport={preview} />
      {/* Scrolls sideways on a phone; focusable so keyboard users can scroll it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="overflow-x-auto" aria-label={t`Rows of the statement`} tabIndex={0}>
        <table className="w-full text-left text-sm">
          <caption className="py-2 text-left font-medium text-slate-800">
            {preview.rows.length > ROWS_SHOWN ? (
              <Trans>
                The first {ROWS_SHOWN} of {preview.rows.length} rows
              </Trans>
            ) : (
              <Trans>Every row</Trans>
            )}
          </caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th scope="col" className="py-2 pr-3 font-medium">
                <Trans>Line</Trans>
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                {isBank ? <Trans>Reference</Trans> : <Trans>Receipt</Trans>}
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                <Trans>Date</Trans>
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                <Trans>Amount</Trans>
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                {isBank ? <Trans>Description</Trans> : <Trans>Account number</Trans>}
              </th>
              <th scope="col" className="py-2 font-medium">
                <Trans>What happens</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.line} className="border-b border-slate-100 align-top">
                <td className="py-2 pr-3 tabular-nums">{row.line}</td>
                <td className="py-2 pr-3 font-mono">{row.receipt}</td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  {/* A bank statement gives the day only. */}
                  {isBank
                    ? formatCalendarDate(kenyaDate(row.completed_at), i18n.locale)
                    : formatKenyaDateTime(row.completed_at, i18n.locale)}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatKsh(row.amount)}</td>
                <td className="py-2 pr-3 break-all">{isBank ? row.details : row.account_number}</td>
                <td className="py-2">
                  <RowOutcome row={row} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <CheckboxField
        label={t`Send receipts for payments older than 3 days too`}
        note={t`Payers of recent payments get their receipt as usual.`}
        checked={sendReceipts}
        onChange={(event) => setSendReceipts(event.target.checked)}
      />
      {confirm.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(confirm.error)}
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row">
        <button
          type="button"
          className={`${primaryButton} sm:w-auto`}
          onClick={onConfirm}
          disabled={confirm.isPending}
        >
          {confirm.isPending ? t`Importing…` : t`Confirm import`}
        </button>
        <button type="button" className={outlineButton} onClick={onDone}>
          <Trans>Choose another file</Trans>
        </button>
      </div>
    </section>
  );
}
