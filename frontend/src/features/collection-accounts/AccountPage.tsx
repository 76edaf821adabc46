import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { Approvals } from "@/features/organizations/Approvals";
import type { ChangeRequest } from "@/features/organizations/api";
import type { OrganizationAccount } from "@/features/payments/api";
import { parseRouteId } from "@/lib/routeId";

/**
 * The page of one of an organization's collection accounts (/orgs/{id}/collection-accounts/{account}/…:
 * its M-Pesa connection, its card payments), for its owners and treasurers: the account named by the
 * route, and below it the changes to such settings that wait for another's approval (`pending`, the
 * kinds of change the page makes).
 */
export function AccountPage({
  pending,
  children,
}: {
  pending: (request: ChangeRequest) => boolean;
  children: (account: OrganizationAccount) => ReactNode;
}) {
  const params = useParams<{ organization?: string; account?: string }>();
  const organizationId = parseRouteId(params.organization);
  const accountId = parseRouteId(params.account);
  return (
    <AppLayout>
      <div className="mx-auto max-w-2xl px-4 py-6">
        {organizationId === null || accountId === null ? (
          <p>
            <Trans>Account not found.</Trans>
          </p>
        ) : (
          <>
            {children({ organizationId, accountId })}
            <Approvals
              organizationId={organizationId}
              only={pending}
              intro={
                <Trans>
                  With two or more owners and treasurers, these settings change only once another of them
                  approves. Requests lapse after 7 days.
                </Trans>
              }
            />
          </>
        )}
      </div>
    </AppLayout>
  );
}
