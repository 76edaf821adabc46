import { useLingui } from "@lingui/react/macro";
import { type ComponentProps, type ReactNode, useId, useState } from "react";

type TextFieldProps = Omit<ComponentProps<"input">, "id"> & {
  label: string;
  /** The message under the field; also marks the input invalid for assistive technology. */
  error?: string;
  hint?: ReactNode;
  /** Shown inside the input's right edge (the password toggle). */
  addon?: ReactNode;
};

const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 " +
  "placeholder:text-slate-400 focus:border-brand-600 read-only:bg-slate-100 read-only:text-slate-600 " +
  "aria-invalid:border-red-600";

/** A labelled input with its hint and error wired up through aria-describedby. */
export function TextField({ label, error, hint, addon, className, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={`${inputClass} ${addon ? "pr-20" : ""}`}
          {...input}
        />
        {addon}
      </div>
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A TextField for passwords with a Show/Hide button named after the field. */
export function PasswordField(props: Omit<TextFieldProps, "type" | "addon">) {
  const { t } = useLingui();
  const [visible, setVisible] = useState(false);
  const label = props.label;
  return (
    <TextField
      {...props}
      type={visible ? "text" : "password"}
      addon={
        <button
          type="button"
          className="absolute inset-y-1 right-1 rounded px-3 text-sm font-medium text-brand-700 hover:bg-brand-50"
          aria-label={visible ? t`Hide ${label}` : t`Show ${label}`}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? t`Hide` : t`Show`}
        </button>
      }
    />
  );
}
