import { Trans } from "@lingui/react/macro";
import type { Schemas } from "@/lib/api/client";

export type Role = Schemas["Role"];

/** A role's name; the server's organizations/roles.py says what each may do. */
export function RoleName({ role }: { role: Role }) {
  const names = {
    owner: <Trans>Owner</Trans>,
    treasurer: <Trans>Treasurer</Trans>,
    usher: <Trans>Usher</Trans>,
    viewer: <Trans>Viewer</Trans>,
  };
  return names[role];
}

/** "Organization · Your role: Treasurer": shown wherever the role limits what the person can do. */
export function RoleBadge({ organization, role }: { organization: string; role: Role }) {
  return (
    <p className="text-sm text-slate-600">
      <span className="font-medium text-slate-800">{organization}</span> ·{" "}
      <Trans>
        Your role:{" "}
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-800">
          <RoleName role={role} />
        </span>
      </Trans>
    </p>
  );
}
