import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, type ReactNode, useState } from "react";
import { primaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { ApiRequestError } from "@/lib/api/client";
import { useFailureToast, useWaitingToast } from "./Approvals";
import {
  isWaiting,
  type Organization,
  type OrganizationDetails,
  useOrganizationCreate,
  useOrganizationUpdate,
} from "./api";

type Kind = Exclude<OrganizationDetails["kind"], "personal">;

/** The kinds an organization is chosen as ('personal' is made for older campaigns, never chosen). */
const KIND_NAMES: Record<Kind, MessageDescriptor> = {
  church: msg`Church`,
  ministry: msg`Ministry`,
  school: msg`School`,
  group: msg`Group`,
};

type Values = { name: string; kind: Kind | ""; county: string };

function DetailsFields({
  values,
  errors,
  onChange,
}: {
  values: Values;
  errors: Record<string, string>;
  onChange(values: Values): void;
}) {
  const { t, i18n } = useLingui();
  return (
    <>
      <TextField
        label={t`Name of the organization`}
        hint={t`Givers see this name as the one they pay, e.g. "PCEA St. Andrew's Kiambu".`}
        autoComplete="organization"
        value={values.name}
        error={errors.name}
        onChange={(event) => onChange({ ...values, name: event.target.value })}
      />
      <SelectField
        label={t`Kind of organization`}
        value={values.kind}
        error={errors.kind}
        onChange={(event) => onChange({ ...values, kind: event.target.value as Kind })}
      >
        <option value="" disabled>
          {t`Choose one`}
        </option>
        {(Object.keys(KIND_NAMES) as Kind[]).map((kind) => (
          <option key={kind} value={kind}>
            {i18n._(KIND_NAMES[kind])}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t`County (optional)`}
        autoComplete="address-level1"
        value={values.county}
        error={errors.county}
        onChange={(event) => onChange({ ...values, county: event.target.value })}
      />
    </>
  );
}

/** The server's field errors of a refused form, else a toast. */
function useFormErrors() {
  const failed = useFailureToast();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onError = (error: unknown) => {
    if (error instanceof ApiRequestError && Object.keys(error.fieldErrors).length)
      setErrors(error.fieldErrors);
    else failed(error);
  };
  return { errors, setErrors, onError };
}

/** "Create your organization": name, kind and county; the user becomes its first owner. */
export function CreateOrganizationForm({
  intro,
  onCreated,
}: {
  intro?: ReactNode;
  onCreated?(id: number): void;
}) {
  const { t } = useLingui();
  const create = useOrganizationCreate();
  const [values, setValues] = useState<Values>({ name: "", kind: "", county: "" });
  const { errors, setErrors, onError } = useFormErrors();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    if (!values.kind) return setErrors({ kind: t`Please choose church, ministry, school or group.` });
    create.mutate(
      { name: values.name, kind: values.kind, county: values.county, town: "", registration_number: "" },
      {
        onSuccess: ({ id, name }) => {
          toast({ title: t`${name} is created. You are its owner.` });
          onCreated?.(id);
        },
        onError,
      },
    );
  };

  return (
    <section
      aria-labelledby="create-organization"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="create-organization" className="text-lg font-semibold text-slate-900">
        <Trans>Create your organization</Trans>
      </h2>
      {intro && <p className="mt-1 text-sm text-slate-600">{intro}</p>}
      <form noValidate onSubmit={onSubmit} className="mt-4 grid gap-4">
        <DetailsFields values={values} errors={errors} onChange={setValues} />
        <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={create.isPending}>
          <Trans>Create organization</Trans>
        </button>
      </form>
    </section>
  );
}

/** Owners name or rename the organization and set its kind and county. A personal organization (named
 * after its owner for older campaigns) is asked to be named; a new name may wait for a second approval. */
export function OrganizationDetailsForm({ organization }: { organization: Organization }) {
  const { t } = useLingui();
  const update = useOrganizationUpdate(organization.id);
  const waiting = useWaitingToast();
  const personal = organization.needs_name;
  const [values, setValues] = useState<Values>({
    name: personal ? "" : organization.name,
    kind: organization.kind === "personal" ? "" : organization.kind,
    county: organization.county,
  });
  const { errors, setErrors, onError } = useFormErrors();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    if (!values.kind) return setErrors({ kind: t`Please choose church, ministry, school or group.` });
    update.mutate(
      { name: values.name, kind: values.kind, county: values.county },
      {
        onSuccess: (answer) =>
          isWaiting(answer) ? waiting() : toast({ title: t`The organization's details are saved.` }),
        onError,
      },
    );
  };

  const form = (
    <form noValidate onSubmit={onSubmit} className="mt-4 grid gap-4">
      <DetailsFields values={values} errors={errors} onChange={setValues} />
      <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={update.isPending}>
        {personal ? <Trans>Name the organization</Trans> : <Trans>Save details</Trans>}
      </button>
    </form>
  );
  if (personal) {
    return (
      <section
        aria-labelledby="name-organization"
        className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-5 sm:p-6"
      >
        <h2 id="name-organization" className="text-lg font-semibold text-slate-900">
          <Trans>Name your organization</Trans>
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          <Trans>
            Your campaigns belong to an organization made under your own name. Givers read its name as the one
            they pay: give it your church's, ministry's, school's or group's name.
          </Trans>
        </p>
        {form}
      </section>
    );
  }
  return (
    <details className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <summary className="cursor-pointer text-lg font-semibold text-slate-900">
        <Trans>Rename or edit the details</Trans>
      </summary>
      <p className="mt-2 text-sm text-slate-600">
        <Trans>
          Givers see the name as the one they pay: with two or more owners and treasurers, a new name waits
          for another of them to approve it.
        </Trans>
      </p>
      {form}
    </details>
  );
}
