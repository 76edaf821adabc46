import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Link } from "wouter";
import { primaryButton } from "@/components/buttonStyles";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { AuthCard, textLink } from "./AuthCard";
import { requestPasswordReset } from "./api";
import { type ForgotPasswordValues, forgotPasswordSchema } from "./rules";

export default function ForgotPasswordPage() {
  const { t } = useLingui();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useSchemaForm(forgotPasswordSchema, { email: "" });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = async ({ email }: ForgotPasswordValues) => {
    try {
      await requestPasswordReset({ email });
      setSentTo(email);
    } catch (error) {
      if (showFieldErrors(error, form, ["email"])) return;
      toast({
        title: t`Error`,
        description: errorMessage(error),
        variant: "destructive",
      });
    }
  };

  if (sentTo) {
    return (
      <AuthCard title={<Trans>Check your email</Trans>}>
        <p className="text-slate-700" role="status">
          <Trans>
            We have sent a link to reset your password to <strong>{sentTo}</strong>. It can be used once.
          </Trans>
        </p>
        <Link href="/signin" className={`${primaryButton} mt-6`}>
          <Trans>Back to Sign In</Trans>
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={<Trans>Forgot Password</Trans>}
      intro={<Trans>Enter your email address and we will send you a link to reset your password.</Trans>}
    >
      <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="space-y-4">
        <TextField
          label={t`Email`}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...form.register("email")}
        />
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? <Trans>Sending...</Trans> : <Trans>Send Reset Link</Trans>}
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
