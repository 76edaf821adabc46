import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { useParams } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { errorMessage } from "@/lib/api/client";
import { type Organization, useOrganization } from "./api";

/** The pages of one organization (/organizations/{id}/…): it loads the organization the route names,
 * with a skeleton meanwhile and a retry when it fails, then shows `children` for it. */
export function OrganizationLoader({ children }: { children: (organization: Organization) => ReactNode }) {
  const { t } = useLingui();
  const organization = useOrganization(Number(useParams<{ id?: string }>().id));
  return (
    <AppLayout>
      {organization.isPending ? (
        <PageSkeleton />
      ) : organization.isError ? (
        <PageLoadError
          message={errorMessage(organization.error, t`Could not load this organization.`)}
          retry={() => void organization.refetch()}
        />
      ) : (
        children(organization.data)
      )}
    </AppLayout>
  );
}
