import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime } from "@/lib/kenyaTime";
import { type ChangeRequest, useApprovalDecision, useApprovals } from "./api";

export const card = "mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6";

export function useWaitingToast() {
  const { t } = useLingui();
  return () =>
    toast({
      title: t`Waiting for approval`,
      description: t`Another owner or treasurer must approve this change before it takes effect.`,
    });
}

export function useFailureToast() {
  const { t } = useLingui();
  return (error: unknown) =>
    toast({ title: t`Error`, description: errorMessage(error), variant: "destructive" });
}

/** The changes waiting for a second owner's or treasurer's approval (the two-person rule), with
 * Approve and Withdraw; ``only`` narrows them (e.g. to payment details), ``intro`` says what they are. */
export function Approvals({
  organizationId,
  only = () => true,
  intro,
}: {
  organizationId: number;
  only?: (request: ChangeRequest) => boolean;
  intro?: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const approvals = useApprovals(organizationId);
  const decide = useApprovalDecision(organizationId);
  const failed = useFailureToast();
  const shown = approvals.data?.filter(only) ?? [];
  const pending = shown.filter((request) => request.status === "pending");
  const decided = shown.filter((request) => request.status !== "pending");

  const act = (request: ChangeRequest, action: "approve" | "withdraw") =>
    decide.mutate(
      { requestId: request.id, action },
      {
        onSuccess: () =>
          toast({ title: action === "approve" ? t`Approved: the change has taken effect.` : t`Withdrawn.` }),
        onError: failed,
      },
    );

  return (
    <section aria-labelledby="approvals" className={card}>
      <h2 id="approvals" className="text-lg font-semibold text-slate-900">
        <Trans>Changes waiting for approval</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {intro ?? (
          <Trans>
            With two or more owners and treasurers, adding, raising or removing one, and every change to where
            the money is paid, takes effect only once another of them approves it. Requests lapse after 7
            days.
          </Trans>
        )}
      </p>
      {approvals.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {errorMessage(approvals.error)}
        </p>
      ) : pending.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          <Trans>Nothing is waiting.</Trans>
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {pending.map((request) => (
            <li key={request.id} className="py-3">
              <p className="font-medium text-slate-900">{request.description}</p>
              <p className="text-sm text-slate-600">
                <Trans>
                  Asked for by {request.requested_by} · lapses{" "}
                  {formatKenyaDateTime(request.expires_at, i18n.locale)}
                </Trans>
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                {request.can_approve && (
                  <button
                    type="button"
                    className={`${primaryButton} sm:w-auto`}
                    disabled={decide.isPending}
                    onClick={() => act(request, "approve")}
                  >
                    <Trans>Approve</Trans>
                  </button>
                )}
                {request.can_withdraw && (
                  <button
                    type="button"
                    className={outlineButton}
                    disabled={decide.isPending}
                    onClick={() => act(request, "withdraw")}
                  >
                    <Trans>Withdraw</Trans>
                  </button>
                )}
                {!request.can_approve && !request.can_withdraw && (
                  <p className="text-sm text-slate-600">
                    <Trans>Another owner or treasurer can approve it.</Trans>
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {decided.length > 0 && (
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">
            <Trans>Recent decisions</Trans>
          </summary>
          <ul className="mt-2 space-y-1 text-sm text-slate-600">
            {decided.map((request) => (
              <li key={request.id}>
                {request.description} — <RequestStatus status={request.status} />
                {request.decided_by && ` (${request.decided_by})`}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function RequestStatus({ status }: { status: ChangeRequest["status"] }) {
  const names = {
    pending: <Trans>waiting</Trans>,
    applied: <Trans>applied</Trans>,
    withdrawn: <Trans>withdrawn</Trans>,
    expired: <Trans>lapsed</Trans>,
  };
  return names[status];
}
