import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { CheckboxField, SelectField, TextAreaField } from "@/components/FieldControls";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { useCampaignAccounts } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId } from "@/features/campaigns/links";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { kenyaDate } from "@/lib/kenyaTime";
import { formatKsh } from "@/lib/money";
import {
  type PayeeKind,
  reportUrl,
  type SpendingCategory,
  type TeamLine,
  type TeamSpending,
  useApproveSpending,
  usePostProgressUpdate,
  useRecordSpending,
  useReverseSpending,
  useTeamSpending,
} from "./api";
import { FigureList } from "./Figures";

/**
 * /campaign/{id}/spending/team: the campaign's spending for its team. Owners and treasurers record what
 * the church paid (with its receipt), approve a line another recorded (the two-person rule), reverse a
 * line (a new entry: the original stays) and post progress updates; viewers read. The committee's
 * report (PDF, CSV) for a period.
 */
export default function SpendingTeamPage() {
  const id = parseCampaignId(useParams<{ id?: string }>().id);
  return <AppLayout>{id === null ? <CampaignNotFound /> : <TeamLoader id={id} />}</AppLayout>;
}

function TeamLoader({ id }: { id: number }) {
  const spending = useTeamSpending(id);
  if (spending.isError && spending.error instanceof ApiRequestError && spending.error.status === 404) {
    return <CampaignNotFound />;
  }
  if (spending.error) {
    return <PageLoadError message={errorMessage(spending.error)} retry={() => void spending.refetch()} />;
  }
  if (!spending.data) return <PageSkeleton />;
  return <Team id={id} spending={spending.data} />;
}

function Team({ id, spending }: { id: number; spending: TeamSpending }) {
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold text-slate-900">
          <Trans>Spending</Trans>
        </h1>
        <p className="text-slate-700">
          <Trans>
            What the church paid from this campaign's money. A line counts once a second owner or treasurer
            approves it.
          </Trans>
        </p>
        <div className="flex flex-wrap gap-4">
          <Link href={`/campaign/${id}/spending`} className="text-brand-700 underline">
            <Trans>The public page</Trans>
          </Link>
          <Link href={`/campaign/${id}`} className="text-brand-700 underline">
            <Trans>Back to the campaign</Trans>
          </Link>
        </div>
      </header>
      <FigureList figures={spending.figures} />
      {spending.may_record && <RecordForm id={id} />}
      <Lines id={id} spending={spending} />
      <Report id={id} />
      {spending.may_record && <UpdateForm id={id} />}
    </div>
  );
}

function useCategories(): [SpendingCategory, string][] {
  const { t } = useLingui();
  return [
    ["materials", t`Materials`],
    ["labour", t`Labour`],
    ["transport", t`Transport`],
    ["fees", t`Fees and charges`],
    ["beneficiary_bill", t`A beneficiary's bill`],
    ["other", t`Other`],
  ];
}

function RecordForm({ id }: { id: number }) {
  const { t } = useLingui();
  const record = useRecordSpending(id);
  const accounts = useCampaignAccounts(id, true);
  const categories = useCategories();
  const [form, setForm] = useState({
    spent_on: kenyaDate(new Date()),
    payee: "",
    payee_kind: "organization" as PayeeKind,
    category: "materials" as SpendingCategory,
    amount: "",
    account_id: "",
    note: "",
    publish_receipt: false,
  });
  const [receipt, setReceipt] = useState<File | null>(null);
  const fieldErrors = record.error instanceof ApiRequestError ? record.error.fieldErrors : undefined;
  const set = (field: keyof typeof form) => (value: string | boolean) => setForm({ ...form, [field]: value });

  function submit(event: FormEvent) {
    event.preventDefault();
    record.mutate(
      {
        ...form,
        amount: Number(form.amount),
        account_id: form.account_id ? Number(form.account_id) : null,
        receipt,
      },
      {
        onSuccess: () => {
          toast({ title: t`Recorded. A second owner or treasurer must approve it.` });
          setForm({ ...form, payee: "", amount: "", note: "" });
          setReceipt(null);
        },
      },
    );
  }

  return (
    <section aria-labelledby="record-heading" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="record-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Record spending</Trans>
      </h2>
      <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2">
        <TextField
          label={t`Date paid`}
          type="date"
          required
          value={form.spent_on}
          onChange={(e) => set("spent_on")(e.target.value)}
          error={fieldErrors?.spent_on}
        />
        <TextField
          label={t`Amount (Ksh)`}
          inputMode="numeric"
          required
          value={form.amount}
          onChange={(e) => set("amount")(e.target.value.replace(/\D/g, ""))}
          error={fieldErrors?.amount}
        />
        <TextField
          label={t`Paid to`}
          required
          maxLength={150}
          value={form.payee}
          onChange={(e) => set("payee")(e.target.value)}
          error={fieldErrors?.payee}
        />
        <SelectField
          label={t`Who was paid`}
          value={form.payee_kind}
          onChange={(e) => set("payee_kind")(e.target.value)}
          hint={t`A private person's name is shown to the public as initials.`}
        >
          <option value="organization">{t`An organization or business`}</option>
          <option value="person">{t`A private person`}</option>
        </SelectField>
        <SelectField
          label={t`Category`}
          value={form.category}
          onChange={(e) => set("category")(e.target.value)}
        >
          {categories.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t`Paid from`}
          value={form.account_id}
          onChange={(e) => set("account_id")(e.target.value)}
          error={fieldErrors?.account_id}
        >
          <option value="">{t`Not said`}</option>
          {(accounts.data ?? []).map((account) => (
            <option key={account.id} value={account.id}>
              {account.label ||
                account.paybill_number ||
                account.till_number ||
                account.account_number ||
                account.kind}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label={t`Note`}
          className="sm:col-span-2"
          rows={2}
          value={form.note}
          onChange={(e) => set("note")(e.target.value)}
        />
        <div className="sm:col-span-2">
          <label htmlFor="receipt" className="mb-1 block text-sm font-medium text-slate-800">
            <Trans>Receipt or invoice (photo or PDF, at most 10 MB)</Trans>
          </label>
          <input
            id="receipt"
            type="file"
            accept="image/jpeg,image/png,image/gif,application/pdf"
            onChange={(e) => setReceipt(e.target.files?.[0] ?? null)}
            className="block w-full text-sm"
          />
          {fieldErrors?.receipt && <p className="mt-1 text-sm text-red-700">{fieldErrors.receipt}</p>}
        </div>
        <CheckboxField
          className="sm:col-span-2"
          label={t`Show the receipt on the public page`}
          checked={form.publish_receipt}
          onChange={(e) => set("publish_receipt")(e.target.checked)}
        />
        {record.error && !fieldErrors && (
          <p className="text-red-700 sm:col-span-2">{errorMessage(record.error)}</p>
        )}
        <button type="submit" className={`${primaryButton} sm:col-span-2`} disabled={record.isPending}>
          <Trans>Record</Trans>
        </button>
      </form>
    </section>
  );
}

function statusLabel(line: TeamLine, t: ReturnType<typeof useLingui>["t"]): string {
  switch (line.status) {
    case "pending":
      return t`Waiting for approval`;
    case "approved":
      return t`Approved by ${line.approved_by}`;
    case "reversed":
      return t`Reversed`;
    default:
      return t`Reversing entry`;
  }
}

function Lines({ id, spending }: { id: number; spending: TeamSpending }) {
  const { t } = useLingui();
  const approve = useApproveSpending(id);
  const reverse = useReverseSpending(id);
  const [reversing, setReversing] = useState<number | null>(null);
  const [reason, setReason] = useState("");
  const failed = (error: Error) => toast({ title: errorMessage(error), variant: "destructive" });
  return (
    <section aria-labelledby="lines-heading">
      <h2 id="lines-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Lines</Trans>
      </h2>
      {spending.lines.length === 0 ? (
        <p className="mt-2 text-slate-700">
          <Trans>Nothing recorded yet.</Trans>
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {spending.lines.map((line) => (
            <li key={line.id} className="flex flex-col gap-2 px-4 py-3">
              <div className="flex flex-col gap-1 sm:flex-row sm:justify-between">
                <div>
                  <p className="font-medium text-slate-900">
                    {line.payee} · {line.category_label}
                  </p>
                  <p className="text-sm text-slate-700">
                    {line.spent_on} · {t`Recorded by ${line.recorded_by}`} · {statusLabel(line, t)}
                  </p>
                  {line.note && <p className="text-sm text-slate-700">{line.note}</p>}
                  {line.receipt_url && (
                    <a href={line.receipt_url} className="text-sm text-brand-700 underline">
                      <Trans>Receipt</Trans>
                    </a>
                  )}
                </div>
                <p className="font-semibold text-slate-900">
                  {line.status === "reversal" ? `−${formatKsh(line.amount)}` : formatKsh(line.amount)}
                </p>
              </div>
              {spending.may_record && (line.status === "pending" || line.status === "approved") && (
                <div className="flex flex-wrap gap-2">
                  {line.status === "pending" && !line.recorded_by_me && (
                    <button
                      type="button"
                      className={outlineButton}
                      disabled={approve.isPending}
                      onClick={() =>
                        approve.mutate(line.id, {
                          onSuccess: () => toast({ title: t`Approved.` }),
                          onError: failed,
                        })
                      }
                    >
                      <Trans>
                        Approve {formatKsh(line.amount)} to {line.payee}
                      </Trans>
                    </button>
                  )}
                  {line.status === "pending" && line.recorded_by_me && (
                    <p className="text-sm text-slate-700">
                      <Trans>Another owner or treasurer approves it.</Trans>
                    </p>
                  )}
                  {reversing === line.id ? (
                    <form
                      className="flex flex-wrap items-end gap-2"
                      onSubmit={(event) => {
                        event.preventDefault();
                        reverse.mutate(
                          { recordId: line.id, reason },
                          {
                            onSuccess: () => {
                              toast({ title: t`Reversed.` });
                              setReversing(null);
                              setReason("");
                            },
                            onError: failed,
                          },
                        );
                      }}
                    >
                      <TextField
                        label={t`Why?`}
                        required
                        value={reason}
                        onChange={(e) => setReason(e.target.value)}
                      />
                      <button type="submit" className={outlineButton} disabled={reverse.isPending}>
                        <Trans>Reverse</Trans>
                      </button>
                    </form>
                  ) : (
                    <button type="button" className={outlineButton} onClick={() => setReversing(line.id)}>
                      <Trans>Reverse…</Trans>
                    </button>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Report({ id }: { id: number }) {
  const { t } = useLingui();
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  return (
    <section aria-labelledby="report-heading" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="report-heading" className="text-lg font-semibold text-slate-900">
        <Trans>The committee's report</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        <Trans>
          In English and Kiswahili: money in by channel, money out by category, the balance, pledges
          outstanding and the approvals.
        </Trans>
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <TextField label={t`From`} type="date" value={start} onChange={(e) => setStart(e.target.value)} />
        <TextField label={t`To`} type="date" value={end} onChange={(e) => setEnd(e.target.value)} />
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <a href={reportUrl(id, "pdf", start, end)} download className={outlineButton}>
          <Trans>Download PDF</Trans>
        </a>
        <a href={reportUrl(id, "csv", start, end)} download className={outlineButton}>
          <Trans>Download CSV</Trans>
        </a>
      </div>
    </section>
  );
}

function UpdateForm({ id }: { id: number }) {
  const { t } = useLingui();
  const post = usePostProgressUpdate(id);
  const [text, setText] = useState("");
  return (
    <section aria-labelledby="update-heading" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="update-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Post a progress update</Trans>
      </h2>
      <form
        className="mt-3 flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          post.mutate(text, {
            onSuccess: () => {
              toast({ title: t`Posted on the campaign page.` });
              setText("");
            },
            onError: (error) => toast({ title: errorMessage(error), variant: "destructive" }),
          });
        }}
      >
        <TextAreaField
          label={t`What has the money done?`}
          required
          maxLength={2000}
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className={primaryButton} disabled={post.isPending}>
          <Trans>Post</Trans>
        </button>
      </form>
    </section>
  );
}
