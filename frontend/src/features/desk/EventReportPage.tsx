import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useState } from "react";
import { Link, useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { TextAreaField } from "@/components/FieldControls";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { toast } from "@/components/toast";
import { type Campaign, isNotFound, useCampaign } from "@/features/campaigns/api";
import { CampaignNotFound } from "@/features/campaigns/CampaignNotFound";
import { parseCampaignId } from "@/features/campaigns/links";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime, formatKenyaTime } from "@/lib/kenyaTime";
import { formatKsh } from "@/lib/money";
import { parseRouteId } from "@/lib/routeId";
import { smsLength } from "@/lib/smsLength";
import {
  type EntryMethod,
  type EventReport,
  eventReportCsvUrl,
  type ThanksSent,
  useEventReport,
  useSendThanks,
} from "./api";

/**
 * /campaign/{id}/events/{eventId}/report: the night's report for the campaign's team (not ushers: it
 * names the givers, as Pledge Management does). Printable: the header, buttons and the thank-you form
 * are left off the paper. Owners and treasurers download its CSV and thank the givers after the close.
 */
export default function EventReportPage() {
  const params = useParams<{ id?: string; event?: string }>();
  const id = parseCampaignId(params.id);
  const eventId = parseRouteId(params.event);
  return (
    <AppLayout>
      {id === null || eventId === null ? <CampaignNotFound /> : <ReportLoader id={id} eventId={eventId} />}
    </AppLayout>
  );
}

function ReportLoader({ id, eventId }: { id: number; eventId: number }) {
  const campaign = useCampaign(id);
  const report = useEventReport(eventId);
  if (campaign.isError && isNotFound(campaign.error)) return <CampaignNotFound />;
  const error = campaign.error ?? report.error;
  if (error) {
    return (
      <PageLoadError
        message={errorMessage(error)}
        retry={() => void Promise.all([campaign.refetch(), report.refetch()])}
      />
    );
  }
  if (!campaign.data || !report.data) return <PageSkeleton />;
  if (report.data.campaign_id !== id) return <CampaignNotFound />;
  return <Report campaign={campaign.data} report={report.data} />;
}

function useMethodLabel() {
  const { t } = useLingui();
  const labels: Record<EntryMethod, string> = {
    desk_pledge: t`Desk: pledge card`,
    desk_cash: t`Desk: cash`,
    desk_mpesa: t`Desk: M-Pesa`,
    web: t`Online pledge`,
    ussd: t`Pledge by USSD`,
    sms: t`Pledge by SMS`,
    mpesa: t`M-Pesa gift`,
    card: t`Card gift`,
    other: t`Other gift`,
  };
  return (method: EntryMethod) => labels[method];
}

function Report({ campaign, report }: { campaign: Campaign; report: EventReport }) {
  const { i18n } = useLingui();
  const { event } = report;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-8 print:max-w-none print:gap-4 print:p-0">
      <header className="flex flex-col gap-2">
        <p className="text-sm text-slate-700">{report.campaign_title}</p>
        <h1 className="text-2xl font-semibold text-slate-900">
          <Trans>The night's report: {event.title}</Trans>
        </h1>
        <p className="text-slate-700">
          {event.opened_at && formatKenyaDateTime(event.opened_at, i18n.locale)}
          {" – "}
          {event.closed_at ? formatKenyaDateTime(event.closed_at, i18n.locale) : <Trans>still open</Trans>}
        </p>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row print:hidden">
          <button type="button" className={`${primaryButton} sm:w-auto`} onClick={() => window.print()}>
            <Trans>Print</Trans>
          </button>
          {campaign.can_manage_pledges && (
            <a href={eventReportCsvUrl(event.id)} download className={`${outlineButton} text-center`}>
              <Trans>Download CSV</Trans>
            </a>
          )}
          <Link href={`/campaign/${campaign.id}/events`} className={`${outlineButton} text-center`}>
            <Trans>Back to the events</Trans>
          </Link>
        </div>
      </header>
      <Totals report={report} />
      <ByMethod report={report} />
      <ByUsher report={report} />
      <Entries report={report} />
      {campaign.can_manage_pledges && (
        <Thanks report={report} organizationName={campaign.organization_name} />
      )}
    </div>
  );
}

function Figure({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-1 text-xl font-semibold text-slate-900">{children}</dd>
    </div>
  );
}

function Totals({ report }: { report: EventReport }) {
  const { pledged, given } = report;
  return (
    <section aria-labelledby="totals-heading">
      <h2 id="totals-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Totals</Trans>
      </h2>
      <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4 print:grid-cols-4">
        <Figure label={<Trans>Pledged</Trans>}>
          {formatKsh(pledged.amount)}{" "}
          <span className="text-sm font-normal text-slate-700">
            <Trans>({pledged.count} pledges)</Trans>
          </span>
        </Figure>
        <Figure label={<Trans>Paid so far on these pledges</Trans>}>
          {formatKsh(report.paid_against_pledges)}
        </Figure>
        <Figure label={<Trans>Given</Trans>}>
          {formatKsh(given.amount)}{" "}
          <span className="text-sm font-normal text-slate-700">
            <Trans>({given.count} gifts)</Trans>
          </span>
        </Figure>
        <Figure label={<Trans>New pledgers</Trans>}>{report.new_pledgers}</Figure>
      </dl>
    </section>
  );
}

const scrolling = "mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white";

/** A table that scrolls sideways on a phone, reachable by keyboard. */
function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className={scrolling} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

const headCell = "px-3 py-2 text-left font-medium";
const numberCell = "px-3 py-2 text-right whitespace-nowrap";

function ByMethod({ report }: { report: EventReport }) {
  const { t } = useLingui();
  const methodLabel = useMethodLabel();
  return (
    <section aria-labelledby="methods-heading">
      <h2 id="methods-heading" className="text-lg font-semibold text-slate-900">
        <Trans>By way of giving</Trans>
      </h2>
      {report.by_method.length === 0 ? (
        <p className="mt-2 text-slate-700">
          <Trans>Nothing came in during this event.</Trans>
        </p>
      ) : (
        <TableRegion label={t`By way of giving`}>
          <table className="w-full text-sm">
            <caption className="sr-only">
              <Trans>Entries and amounts by way of giving</Trans>
            </caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className={headCell}>
                  <Trans>Way</Trans>
                </th>
                <th scope="col" className={numberCell}>
                  <Trans>Entries</Trans>
                </th>
                <th scope="col" className={numberCell}>
                  <Trans>Amount</Trans>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {report.by_method.map((row) => (
                <tr key={row.method}>
                  <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">
                    {methodLabel(row.method)}
                  </th>
                  <td className={numberCell}>{row.count}</td>
                  <td className={numberCell}>{formatKsh(row.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

function countAndAmount(figures: { count: number; amount: number }) {
  return figures.count === 0 ? "–" : `${figures.count} · ${formatKsh(figures.amount)}`;
}

function ByUsher({ report }: { report: EventReport }) {
  const { t } = useLingui();
  return (
    <section aria-labelledby="ushers-heading">
      <h2 id="ushers-heading" className="text-lg font-semibold text-slate-900">
        <Trans>By usher</Trans>
      </h2>
      {report.by_usher.length === 0 ? (
        <p className="mt-2 text-slate-700">
          <Trans>Nothing was recorded at the desk.</Trans>
        </p>
      ) : (
        <TableRegion label={t`By usher`}>
          <table className="w-full text-sm">
            <caption className="sr-only">
              <Trans>What each usher recorded at the desk: entries and amounts</Trans>
            </caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className={headCell}>
                  <Trans>Usher</Trans>
                </th>
                <th scope="col" className={numberCell}>
                  <Trans>Pledge cards</Trans>
                </th>
                <th scope="col" className={numberCell}>
                  <Trans>Cash</Trans>
                </th>
                <th scope="col" className={numberCell}>
                  <Trans>M-Pesa</Trans>
                </th>
                <th scope="col" className={numberCell}>
                  <Trans>Already in the books</Trans>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {report.by_usher.map((usher, index) => (
                // Two volunteers may share a name: their rows stay apart, in the server's order.
                // biome-ignore lint/suspicious/noArrayIndexKey: the rows have no other identity
                <tr key={index}>
                  <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">
                    {usher.usher_name}
                  </th>
                  <td className={numberCell}>{countAndAmount(usher.pledge_cards)}</td>
                  <td className={numberCell}>{countAndAmount(usher.cash)}</td>
                  <td className={numberCell}>{countAndAmount(usher.mpesa)}</td>
                  <td className={numberCell}>{usher.already_in_books || "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

function Entries({ report }: { report: EventReport }) {
  const { t, i18n } = useLingui();
  const methodLabel = useMethodLabel();
  if (report.entries.length === 0) return null;
  return (
    <section aria-labelledby="entries-heading">
      <h2 id="entries-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Every pledge and gift</Trans>
      </h2>
      <TableRegion label={t`Every pledge and gift`}>
        <table className="w-full text-sm">
          <caption className="sr-only">
            <Trans>The night's pledges and gifts, earliest first</Trans>
          </caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className={headCell}>
                <Trans>Time</Trans>
              </th>
              <th scope="col" className={headCell}>
                <Trans>Giver</Trans>
              </th>
              <th scope="col" className={headCell}>
                <Trans>Way</Trans>
              </th>
              <th scope="col" className={numberCell}>
                <Trans>Amount</Trans>
              </th>
              <th scope="col" className={numberCell}>
                <Trans>Paid</Trans>
              </th>
              <th scope="col" className={headCell}>
                <Trans>Usher</Trans>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {report.entries.map((line) => (
              <tr key={line.key}>
                <td className="px-3 py-2 whitespace-nowrap">
                  <time dateTime={line.at}>{formatKenyaTime(line.at, i18n.locale)}</time>
                </td>
                <th scope="row" className="px-3 py-2 text-left font-normal text-slate-900">
                  <span className="font-medium">{line.name || t`No name`}</span>
                  {line.is_anonymous && (
                    <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                      <Trans>Anonymous</Trans>
                    </span>
                  )}
                  {line.new_pledger && (
                    <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-800">
                      <Trans>New pledger</Trans>
                    </span>
                  )}
                  <span className="block text-xs text-slate-700">
                    {[line.phone, line.email, line.pledge_code].filter(Boolean).join(" · ")}
                  </span>
                </th>
                <td className="px-3 py-2">{methodLabel(line.method)}</td>
                <td className={numberCell}>{formatKsh(line.amount)}</td>
                <td className={numberCell}>{formatKsh(line.paid_amount)}</td>
                <td className="px-3 py-2">{line.usher_name ?? "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </section>
  );
}

function Thanks({ report, organizationName }: { report: EventReport; organizationName: string }) {
  const { t } = useLingui();
  const { event, thanks } = report;
  const send = useSendThanks(event.id);
  const [text, setText] = useState(
    () => t`Thank you for giving at ${event.title}. God bless you! ${organizationName}`,
  );
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<ThanksSent>();
  // The server holds the message to the same rule (one SMS, by its encoding).
  const length = smsLength(text.trim());
  const tooLong = length.remaining < 0;
  const outside = length.outsideAlphabet.join(" ");

  const onSubmit = async (submitted: FormEvent) => {
    submitted.preventDefault();
    setError(undefined);
    if (!text.trim()) {
      setError(t`Write the message: it goes to the givers as one SMS.`);
      return;
    }
    if (tooLong) {
      setError(t`The message is too long for one SMS: shorten it.`);
      return;
    }
    try {
      setSent(await send.mutateAsync(text));
      toast({ title: t`Thank-you message on its way` });
    } catch (failure) {
      if (failure instanceof ApiRequestError && failure.fieldErrors.text) setError(failure.fieldErrors.text);
      else toast({ title: t`Error`, description: errorMessage(failure), variant: "destructive" });
    }
  };

  return (
    <section
      aria-labelledby="thanks-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm print:hidden"
    >
      <h2 id="thanks-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Thank the givers</Trans>
      </h2>
      {event.state !== "closed" ? (
        <p className="mt-2 text-slate-700">
          <Trans>You can thank everyone who gave once the event is closed.</Trans>
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-700">
            <Trans>
              One SMS to everyone who pledged or gave during the event (an e-mail to those who gave no
              number), each once. Those who asked for no reminders are left out; at night it waits for the
              morning.
            </Trans>
          </p>
          <form
            className="mt-4 flex flex-col gap-4"
            noValidate
            onSubmit={(submitted) => void onSubmit(submitted)}
          >
            <TextAreaField
              label={t`Your message`}
              value={text}
              rows={3}
              error={error}
              hint={
                <span aria-live="polite" className={tooLong ? "text-red-700" : undefined}>
                  {tooLong ? (
                    <Plural
                      value={-length.remaining}
                      one="# character too many for one SMS"
                      other="# characters too many for one SMS"
                    />
                  ) : (
                    <Plural
                      value={length.remaining}
                      one="# character left in one SMS"
                      other="# characters left in one SMS"
                    />
                  )}
                  {length.encoding === "ucs2" && (
                    <span className="block text-amber-800" data-testid="thanks-ucs2">
                      <Trans>
                        {outside} is not in the SMS alphabet: with it, one SMS holds {length.limit} characters
                        instead of 160.
                      </Trans>
                    </span>
                  )}
                </span>
              }
              onChange={(changed) => setText(changed.target.value)}
            />
            <figure className="rounded-lg bg-slate-50 p-3">
              <figcaption className="text-xs font-medium text-slate-700">
                <Trans>What they will read</Trans>
              </figcaption>
              <p className="mt-1 whitespace-pre-line text-slate-900">{text.trim()}</p>
            </figure>
            <button
              type="submit"
              className={`${primaryButton} sm:w-auto sm:self-start`}
              disabled={send.isPending}
            >
              {thanks.total > 0 ? (
                <Trans>Thank those not thanked yet</Trans>
              ) : (
                <Trans>Send the thank-you</Trans>
              )}
            </button>
          </form>
          {sent && (
            <p role="status" className="mt-3 text-slate-800">
              <Trans>
                Thanked now: {sent.queued}. Already thanked: {sent.already_thanked}. Left out:{" "}
                {sent.opted_out} who asked for no messages, {sent.no_contact} without a number or e-mail.
              </Trans>
            </p>
          )}
          {thanks.total > 0 && (
            <p className="mt-3 text-sm text-slate-700">
              <Trans>
                Sent to {thanks.total} givers: {thanks.sent} delivered, {thanks.waiting} waiting,{" "}
                {thanks.limited} not sent (they had had too many messages), {thanks.failed} failed.
              </Trans>
            </p>
          )}
        </>
      )}
    </section>
  );
}
