import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Link, useSearch } from "wouter";
import { primaryButton } from "@/components/buttonStyles";
import { PasswordField } from "@/components/TextField";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { revalidateIfDirty, showFieldErrors, useSchemaForm } from "@/lib/forms";
import { AuthCard, textLink } from "./AuthCard";
import { resetPassword } from "./api";
import { type ResetPasswordValues, resetPasswordSchema } from "./rules";

export default function ResetPasswordPage() {
  const { t } = useLingui();
  const params = new URLSearchParams(useSearch());
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<{ message: string; badLink: boolean } | null>(null);
  const form = useSchemaForm(resetPasswordSchema, { password: "", confirmPassword: "" });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = async (values: ResetPasswordValues) => {
    setFailure(null);
    try {
      await resetPassword({
        uid: params.get("uid") ?? "",
        token: params.get("token") ?? "",
        password: values.password,
        confirm_password: values.confirmPassword,
      });
      setDone(true);
    } catch (error) {
      if (showFieldErrors(error, form, ["password", "confirmPassword"])) return;
      setFailure({
        message: errorMessage(error),
        badLink: error instanceof ApiRequestError && error.code === "invalid_token",
      });
    }
  };

  if (done) {
    return (
      <AuthCard title={<Trans>Password Reset</Trans>}>
        <p className="text-slate-700" role="status">
          <Trans>Your password has been reset. You can now sign in with your new password.</Trans>
        </p>
        <Link href="/signin" className={`${primaryButton} mt-6`}>
          <Trans>Sign In</Trans>
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={<Trans>Reset Password</Trans>}
      intro={<Trans>Choose a new password for your account.</Trans>}
    >
      {failure && (
        <div
          role="alert"
          className="mb-4 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
        >
          <p>{failure.message}</p>
          {failure.badLink && (
            <Link href="/forgot-password" className="mt-1 inline-block font-medium underline">
              <Trans>Request a new link</Trans>
            </Link>
          )}
        </div>
      )}
      <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="space-y-4">
        <PasswordField
          label={t`New Password`}
          autoComplete="new-password"
          hint={<Trans>At least 8 characters, with a letter and a symbol.</Trans>}
          error={errors.password?.message}
          {...form.register("password", { onChange: revalidateIfDirty(form, "confirmPassword") })}
        />
        <PasswordField
          label={t`Confirm New Password`}
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register("confirmPassword")}
        />
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? <Trans>Resetting...</Trans> : <Trans>Reset Password</Trans>}
        </button>
      </form>
      <p className="mt-6 text-center text-sm">
        <Link href="/signin" className={textLink}>
          <Trans>Back to Sign In</Trans>
        </Link>
      </p>
    </AuthCard>
  );
}
