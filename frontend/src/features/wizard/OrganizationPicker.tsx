import { useLingui } from "@lingui/react/macro";
import { SelectField } from "@/components/FieldControls";
import type { Organization } from "@/features/organizations/api";

/** The wizard's first step asks which organization the campaign belongs to, only when the user owns
 * several (the server otherwise picks their one; the wizard has them create one first). */
export function OrganizationPicker({
  organizations,
  value,
  onChange,
  error,
}: {
  organizations: Organization[];
  value: number | null;
  onChange(id: number): void;
  error?: string;
}) {
  const { t } = useLingui();
  return (
    <SelectField
      label={t`Organization`}
      hint={t`The campaign belongs to this organization; its team manages the pledges.`}
      className="mb-6"
      value={value ?? ""}
      error={error}
      onChange={(event) => onChange(Number(event.target.value))}
    >
      <option value="" disabled>
        {t`Choose an organization`}
      </option>
      {organizations.map((organization) => (
        <option key={organization.id} value={organization.id}>
          {organization.name}
        </option>
      ))}
    </SelectField>
  );
}
