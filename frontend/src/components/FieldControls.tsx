import { type ComponentProps, type ReactNode, useId } from "react";

type FieldProps = { label: string; error?: string; hint?: ReactNode; className?: string };

const controlClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 " +
  "placeholder:text-slate-400 focus:border-brand-600 aria-invalid:border-red-600";

/** The label, hint and error around a control, wired up as TextField does for inputs. */
function Field({
  label,
  error,
  hint,
  className,
  children,
}: FieldProps & { children: (control: ComponentProps<"textarea"> & ComponentProps<"select">) => ReactNode }) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({
        id,
        className: controlClass,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled multi-line text box (descriptions, stories). */
export function TextAreaField({
  label,
  error,
  hint,
  className,
  ...textarea
}: FieldProps & Omit<ComponentProps<"textarea">, "id" | "className">) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => <textarea {...control} {...textarea} />}
    </Field>
  );
}

/** A labelled native select: keyboard and screen-reader friendly on every phone. */
export function SelectField({
  label,
  error,
  hint,
  className,
  ...select
}: FieldProps & Omit<ComponentProps<"select">, "id" | "className">) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => <select {...control} {...select} />}
    </Field>
  );
}

type CheckboxFieldProps = Omit<ComponentProps<"input">, "id" | "type" | "className"> & {
  label: ReactNode;
  /** A line under the label, read out with the checkbox (e.g. what choosing it means). */
  note?: ReactNode;
  className?: string;
};

/** A checkbox with its label beside it, and an optional note under the label. */
export function CheckboxField({ label, note, className = "", ...input }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className={`flex items-start gap-3 ${className}`}>
      <input
        id={id}
        type="checkbox"
        className="mt-1 h-4 w-4 shrink-0 accent-brand-700"
        aria-describedby={note ? `${id}-note` : undefined}
        {...input}
      />
      <div>
        <label htmlFor={id} className={note ? "font-medium text-slate-800" : "text-sm text-slate-800"}>
          {label}
        </label>
        {note && (
          <p id={`${id}-note`} className="text-sm text-slate-600">
            {note}
          </p>
        )}
      </div>
    </div>
  );
}
