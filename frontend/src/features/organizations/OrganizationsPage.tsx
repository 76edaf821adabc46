import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useLocation } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { RoleName } from "@/components/RoleBadge";
import { errorMessage } from "@/lib/api/client";
import { useOrganizations } from "./api";
import { CreateOrganizationForm } from "./OrganizationForm";

/** The organizations the user belongs to, with their role in each: the way into each one's page. */
export default function OrganizationsPage() {
  const { t } = useLingui();
  const organizations = useOrganizations();
  const [, navigate] = useLocation();
  return (
    <AppLayout>
      {organizations.isPending ? (
        <PageSkeleton />
      ) : organizations.isError ? (
        <PageLoadError
          message={errorMessage(organizations.error, t`Could not load your organizations.`)}
          retry={() => void organizations.refetch()}
        />
      ) : (
        <div className="mx-auto w-full max-w-3xl px-4 py-8">
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>My organizations</Trans>
          </h1>
          {organizations.data.length === 0 ? (
            <p className="mt-4 text-slate-600">
              <Trans>
                You are not in any organization's team yet: create yours, or accept an invitation.
              </Trans>
            </p>
          ) : (
            <ul className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
              {organizations.data.map((organization) => (
                <li key={organization.id}>
                  <Link
                    href={`/organizations/${organization.id}`}
                    className="flex items-center justify-between gap-3 p-4 hover:bg-brand-50"
                  >
                    <span className="font-medium text-slate-900">{organization.name}</span>
                    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-800">
                      <RoleName role={organization.role} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <div className="mt-8">
            <CreateOrganizationForm onCreated={(id) => navigate(`/organizations/${id}`)} />
          </div>
        </div>
      )}
    </AppLayout>
  );
}
