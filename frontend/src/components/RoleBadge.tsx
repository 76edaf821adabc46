import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Schemas } from "@/lib/api/client";

export type Role = Schemas["Role"];

/** The roles' names as catalogue entries, for plain text (options, toasts): read them with
 * `i18n._(ROLE_NAMES[role])`. A function taking Lingui's `t` as an argument is not translated by the
 * macro and gives empty strings in the built app. */
export const ROLE_NAMES: Record<Role, MessageDescriptor> = {
  owner: msg`Owner`,
  treasurer: msg`Treasurer`,
  usher: msg`Usher`,
  viewer: msg`Viewer`,
};

/** A role's name; the server's organizations/roles.py says what each may do. */
export function RoleName({ role }: { role: Role }) {
  const { i18n } = useLingui();
  return <>{i18n._(ROLE_NAMES[role])}</>;
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
