import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useLocation, useSearch } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton, secondaryButton } from "@/components/buttonStyles";
import { PageSkeleton } from "@/components/PageSkeleton";
import { RoleName } from "@/components/RoleBadge";
import { toast } from "@/components/toast";
import { PhoneVerification } from "@/features/accounts/PhoneVerification";
import { errorMessage } from "@/lib/api/client";
import { useSession } from "@/lib/session";
import { useInvitationAccept, useInvitationPreview } from "./api";

/** /invitation?token=…: what the link offers; sign in or up, verify the invited number when it came
 * by SMS, then accept. */
export default function InvitationPage() {
  const { t } = useLingui();
  const search = useSearch();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(search).get("token") ?? "";
  const preview = useInvitationPreview(token);
  const session = useSession();
  const accept = useInvitationAccept();
  const user = session.data?.user ?? null;
  const here = encodeURIComponent(`/invitation?${search}`);

  if (token && (preview.isPending || session.isPending)) {
    return (
      <AppLayout>
        <PageSkeleton />
      </AppLayout>
    );
  }
  const invitation = preview.data;

  const onAccept = () =>
    accept.mutate(token, {
      onSuccess: (joined) => {
        toast(
          joined.waiting_for_approval
            ? {
                title: t`Invitation accepted`,
                description: t`You join the team once another owner or treasurer approves.`,
              }
            : { title: t`Welcome to the team!` },
        );
        navigate(`/organizations/${joined.organization_id}`);
      },
    });

  return (
    <AppLayout>
      <div className="mx-auto w-full max-w-lg px-4 py-8">
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Invitation to a team</Trans>
          </h1>
          {!invitation ? (
            <p role="alert" className="mt-3 text-slate-700">
              <Trans>This invitation link is not valid. Ask the person who invited you for a new one.</Trans>
            </p>
          ) : invitation.status !== "pending" ? (
            <p role="alert" className="mt-3 text-slate-700">
              <Trans>This invitation was already used, revoked or has expired. Ask for a new one.</Trans>
            </p>
          ) : (
            <>
              <p className="mt-3 text-slate-800">
                <Trans>
                  {invitation.invited_by} invites you to join <strong>{invitation.organization}</strong> as{" "}
                  <RoleName role={invitation.role} />.
                </Trans>
              </p>
              {(invitation.role === "owner" || invitation.role === "treasurer") && (
                <p className="mt-2 text-sm text-slate-600">
                  <Trans>
                    Where the organization has two or more owners and treasurers, you join once another of
                    them approves.
                  </Trans>
                </p>
              )}
              {!user ? (
                <div className="mt-5 space-y-3">
                  <p className="text-sm text-slate-700">
                    {invitation.email ? (
                      <Trans>Sign in or create an account with {invitation.email} to accept.</Trans>
                    ) : (
                      <Trans>Sign in or create an account, then verify {invitation.phone} to accept.</Trans>
                    )}
                  </p>
                  <Link href={`/signin?next=${here}`} className={primaryButton}>
                    <Trans>Sign In</Trans>
                  </Link>
                  <Link href={`/signup?next=${here}`} className={secondaryButton}>
                    <Trans>Create an account</Trans>
                  </Link>
                </div>
              ) : (
                <div className="mt-5 space-y-4">
                  {invitation.phone && (
                    <section aria-labelledby="verify-phone">
                      <h2 id="verify-phone" className="mb-2 font-semibold text-slate-900">
                        <Trans>Verify the invited number</Trans>
                      </h2>
                      <PhoneVerification user={user} phone={invitation.phone} />
                    </section>
                  )}
                  <button
                    type="button"
                    className={primaryButton}
                    disabled={
                      accept.isPending ||
                      (invitation.phone !== "" && !(user.phone_verified && user.phone === invitation.phone))
                    }
                    onClick={onAccept}
                  >
                    <Trans>Accept the invitation</Trans>
                  </button>
                  {accept.isError && (
                    <p role="alert" className="text-sm text-red-700">
                      {errorMessage(accept.error)}
                    </p>
                  )}
                </div>
              )}
            </>
          )}
        </div>
      </div>
    </AppLayout>
  );
}
