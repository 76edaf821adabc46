import { valibotResolver } from "@hookform/resolvers/valibot";
import { useEffect, useRef } from "react";
import {
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import type * as v from "valibot";
import { useLocation } from "wouter";
import { ApiRequestError } from "@/lib/api/client";

/**
 * A form validated live against a valibot schema. criteriaMode "all" lets the resolver run the
 * whole pipe, so "Passwords do not match" shows while other fields are still wrong. `errors`: shown
 * from the first render (a form the server refused); keep the object the same between renders.
 */
export function useSchemaForm<TValues extends FieldValues>(
  schema: v.GenericSchema<TValues>,
  defaultValues: DefaultValues<TValues>,
  errors?: FieldErrors<TValues>,
) {
  return useForm<TValues>({
    mode: "onChange",
    criteriaMode: "all",
    resolver: valibotResolver(schema),
    defaultValues,
    errors,
  });
}

/** The server's `field_errors` (snake_case keys) that belong to `fields`, as the form's errors. */
export function serverFieldErrors<TValues extends FieldValues>(
  fieldErrors: Record<string, string>,
  fields: readonly Path<TValues>[],
): FieldErrors<TValues> {
  const errors: Record<string, { type: string; message: string }> = {};
  for (const [key, message] of Object.entries(fieldErrors)) {
    const field = fields.find((name) => name === camelCase(key));
    if (field) errors[field] = { type: "server", message };
  }
  return errors as FieldErrors<TValues>;
}

/** Re-checks `field` when a value it is compared with changes, once the user has typed in it. */
export function revalidateIfDirty<TValues extends FieldValues>(
  form: UseFormReturn<TValues>,
  field: Path<TValues>,
) {
  return () => {
    if (form.getFieldState(field).isDirty) void form.trigger(field);
  };
}

const camelCase = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Shows the server's `field_errors` (snake_case keys) under the matching fields.
 * Returns false when none of them belongs to this form, so the caller shows the error otherwise.
 */
export function showFieldErrors<TValues extends FieldValues>(
  error: unknown,
  form: UseFormReturn<TValues>,
  fields: readonly Path<TValues>[],
): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  let shown = false;
  for (const [key, message] of Object.entries(error.fieldErrors)) {
    const field = fields.find((name) => name === camelCase(key));
    if (field) {
      form.setError(field, { type: "server", message }, { shouldFocus: !shown });
      shown = true;
    }
  }
  return shown;
}

/** Navigates after a pause (the spec's redirect timings); the timer ends if the page goes away. */
export function useNavigateLater() {
  const [, navigate] = useLocation();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (to: string, delayMs: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => navigate(to), delayMs);
  };
}
