import { Trans, useLingui } from "@lingui/react/macro";
import { type ComponentType, type FormEvent, Suspense, useState } from "react";
import { Link, useLocation } from "wouter";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { ROLE_NAMES, RoleBadge, RoleName } from "@/components/RoleBadge";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { formatKenyaDateTime } from "@/lib/kenyaTime";
import { Approvals, card, useFailureToast, useWaitingToast } from "./Approvals";
import {
  type Invitation,
  isWaiting,
  type Member,
  type Organization,
  type Role,
  useInvitationRevoke,
  useInvitations,
  useInvite,
  useMemberRemove,
  useOrganizations,
  useRoleChange,
  useTeam,
} from "./api";
import { EmbedOrigins } from "./EmbedOrigins";
import { OrganizationDetailsForm } from "./OrganizationForm";
import { OrganizationLoader } from "./OrganizationLoader";

const ROLES: Role[] = ["owner", "treasurer", "usher", "viewer"];

/** What other features show on the organization's page, composed at the route (OrganizerRoutes.tsx) so
 * that organizations imports none of them: the yearly statements of giving (the giving feature). */
export type OrganizationPageParts = {
  Statements: ComponentType<{ organization: Organization }>;
};

export default function OrganizationPage({ parts }: { parts: OrganizationPageParts }) {
  return (
    <OrganizationLoader>
      {(organization) => <OrganizationView organization={organization} parts={parts} />}
    </OrganizationLoader>
  );
}

function OrganizationView({
  organization,
  parts,
}: {
  organization: Organization;
  parts: OrganizationPageParts;
}) {
  const { Statements: OrganizationStatements } = parts;
  const id = organization.id;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <OrganizationSwitcher current={organization} />
      <h1 className="text-2xl font-bold text-slate-900">{organization.name}</h1>
      <p className="mt-1 text-slate-600">
        {[organization.town, organization.county].filter(Boolean).join(", ")}
        {organization.registration_number && (
          <>
            {" · "}
            <Trans>Registration {organization.registration_number}</Trans>
          </>
        )}
      </p>
      <div className="mt-2">
        <RoleBadge organization={organization.name} role={organization.role} />
      </div>
      {!organization.can_manage_team && (
        <p className="mt-2 text-sm text-slate-600">
          <Trans>Only owners can change the team and send invitations.</Trans>
        </p>
      )}
      <p className="mt-4">
        <Link
          href={`/organizations/${id}/collection-accounts`}
          className="font-medium text-brand-700 underline"
        >
          <Trans>Collection accounts: where the money is paid</Trans>
        </Link>
      </p>
      {(organization.role === "owner" || organization.role === "treasurer") && (
        <p className="mt-4">
          <Link href={`/orgs/${id}/statements`} className="font-medium text-brand-700 underline">
            <Trans>Import an M-Pesa or bank statement</Trans>
          </Link>
        </p>
      )}
      {organization.can_manage_team && <OrganizationDetailsForm organization={organization} />}
      {(organization.role === "owner" || organization.role === "treasurer") && (
        <Suspense fallback={null}>
          <OrganizationStatements organization={organization} />
        </Suspense>
      )}
      <Approvals organizationId={id} />
      <Team organization={organization} />
      {organization.can_manage_team && <Invitations organizationId={id} />}
      <EmbedOrigins organizationId={id} canManage={organization.can_manage_team} />
    </div>
  );
}

/** Where the user belongs to several organizations: move between their pages. */
function OrganizationSwitcher({ current }: { current: Organization }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const organizations = useOrganizations();
  if (!organizations.data || organizations.data.length < 2) return null;
  return (
    <SelectField
      label={t`Organization`}
      className="mb-4 sm:w-80"
      value={current.id}
      onChange={(event) => navigate(`/organizations/${event.target.value}`)}
    >
      {organizations.data.map((organization) => (
        <option key={organization.id} value={organization.id}>
          {organization.name}
        </option>
      ))}
    </SelectField>
  );
}

function Team({ organization }: { organization: Organization }) {
  const { t, i18n } = useLingui();
  const team = useTeam(organization.id);
  const changeRole = useRoleChange(organization.id);
  const [, navigate] = useLocation();
  const organizationName = organization.name;
  const remove = useMemberRemove(organization.id, () => navigate("/organizations"));
  const waiting = useWaitingToast();
  const failed = useFailureToast();

  const onRole = (member: Member, role: Role) => {
    const { name } = member;
    const roleName = i18n._(ROLE_NAMES[role]);
    changeRole.mutate(
      { membershipId: member.id, role },
      {
        onSuccess: (answer) =>
          isWaiting(answer) ? waiting() : toast({ title: t`${name} is now ${roleName}.` }),
        onError: failed,
      },
    );
  };

  const onRemove = (member: Member) =>
    remove.mutate(member, {
      onSuccess: (answer) => {
        if (isWaiting(answer)) return waiting();
        if (member.is_me) return toast({ title: t`You left ${organizationName}.` });
        toast({ title: t`${member.name} was removed from the team.` });
      },
      onError: failed,
    });

  return (
    <section aria-labelledby="team" className={card}>
      <h2 id="team" className="text-lg font-semibold text-slate-900">
        <Trans>Team</Trans>
      </h2>
      {team.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {errorMessage(team.error)}
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {team.data?.map((member) => (
            <li
              key={member.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">
                  {member.name} {member.is_me && <Trans>(you)</Trans>}
                </p>
                <p className="truncate text-sm text-slate-600">{member.email}</p>
              </div>
              <div className="flex flex-wrap items-end gap-2">
                {organization.can_manage_team ? (
                  <SelectField
                    label={t`Role of ${member.name}`}
                    value={member.role}
                    disabled={changeRole.isPending}
                    onChange={(event) => onRole(member, event.target.value as Role)}
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {i18n._(ROLE_NAMES[role])}
                      </option>
                    ))}
                  </SelectField>
                ) : (
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-800">
                    <RoleName role={member.role} />
                  </span>
                )}
                {(organization.can_manage_team || member.is_me) && (
                  <button
                    type="button"
                    className={outlineButton}
                    disabled={remove.isPending}
                    onClick={() => onRemove(member)}
                    aria-label={member.is_me ? t`Leave the team` : t`Remove ${member.name}`}
                  >
                    {member.is_me ? <Trans>Leave</Trans> : <Trans>Remove</Trans>}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Invitations({ organizationId }: { organizationId: number }) {
  const { t, i18n } = useLingui();
  const invitations = useInvitations(organizationId, true);
  const invite = useInvite(organizationId);
  const revoke = useInvitationRevoke(organizationId);
  const failed = useFailureToast();
  const [by, setBy] = useState<"email" | "phone">("email");
  const [address, setAddress] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [fieldError, setFieldError] = useState("");
  // An invitation past the inviter's share of team messages is not sent: its link, to pass on.
  const [heldLink, setHeldLink] = useState("");

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFieldError("");
    setHeldLink("");
    invite.mutate(
      { email: by === "email" ? address : "", phone: by === "phone" ? address : "", role },
      {
        onSuccess: (sent) => {
          setAddress("");
          if (sent.delivery === "held") setHeldLink(sent.invitation_url);
          else toast({ title: t`Invitation sent to ${sent.email || sent.phone}.` });
        },
        onError: (error) => {
          const message = error instanceof ApiRequestError ? Object.values(error.fieldErrors)[0] : undefined;
          if (message) setFieldError(message);
          else failed(error);
        },
      },
    );
  };

  return (
    <section aria-labelledby="invitations" className={card}>
      <h2 id="invitations" className="text-lg font-semibold text-slate-900">
        <Trans>Invitations</Trans>
      </h2>
      <form noValidate onSubmit={onSubmit} className="mt-3 grid gap-3 sm:grid-cols-2">
        <fieldset className="sm:col-span-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">
            <Trans>Send the invitation by</Trans>
          </legend>
          <div className="flex gap-4">
            {(["email", "phone"] as const).map((choice) => (
              <label key={choice} className="flex items-center gap-2 text-slate-800">
                <input
                  type="radio"
                  name="invite-by"
                  value={choice}
                  checked={by === choice}
                  onChange={() => setBy(choice)}
                />
                {choice === "email" ? <Trans>Email</Trans> : <Trans>SMS</Trans>}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField
          label={by === "email" ? t`Their email address` : t`Their Kenyan phone number`}
          type={by === "email" ? "email" : "tel"}
          autoComplete="off"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          error={fieldError || undefined}
        />
        <SelectField label={t`Role`} value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {ROLES.map((choice) => (
            <option key={choice} value={choice}>
              {i18n._(ROLE_NAMES[choice])}
            </option>
          ))}
        </SelectField>
        <p className="text-sm text-slate-600 sm:col-span-2">
          <Trans>
            The link is valid for 7 days and works once, only for the account with this email address or a
            verified phone number.
          </Trans>
        </p>
        <button
          type="submit"
          className={`${primaryButton} sm:w-auto`}
          disabled={invite.isPending || !address.trim()}
        >
          <Trans>Send invitation</Trans>
        </button>
      </form>
      {heldLink && (
        <div role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3">
          <p className="text-sm text-slate-800">
            <Trans>
              The invitation was saved but not sent: you have sent many team messages this hour. Copy its link
              and send it yourself.
            </Trans>
          </p>
          <TextField
            className="mt-2"
            label={t`Invitation link`}
            value={heldLink}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      )}
      {invitations.data && invitations.data.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-200">
          {invitations.data.map((invitation) => (
            <InvitationRow
              key={invitation.id}
              invitation={invitation}
              busy={revoke.isPending}
              onRevoke={() =>
                revoke.mutate(invitation.id, {
                  onSuccess: () => toast({ title: t`Invitation revoked.` }),
                  onError: failed,
                })
              }
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function InvitationRow({
  invitation,
  busy,
  onRevoke,
}: {
  invitation: Invitation;
  busy: boolean;
  onRevoke(): void;
}) {
  const { t, i18n } = useLingui();
  const sentTo = invitation.email || invitation.phone;
  const statuses = {
    pending: <Trans>pending until {formatKenyaDateTime(invitation.expires_at, i18n.locale)}</Trans>,
    accepted: <Trans>accepted</Trans>,
    revoked: <Trans>revoked</Trans>,
    expired: <Trans>expired</Trans>,
  };
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">{sentTo}</p>
        <p className="text-sm text-slate-600">
          <RoleName role={invitation.role} /> · {statuses[invitation.status]}
        </p>
      </div>
      {invitation.status === "pending" && (
        <button
          type="button"
          className={outlineButton}
          disabled={busy}
          onClick={onRevoke}
          aria-label={t`Revoke the invitation to ${sentTo}`}
        >
          <Trans>Revoke</Trans>
        </button>
      )}
    </li>
  );
}
