import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Link, useSearch } from "wouter";
import { primaryButton } from "@/components/buttonStyles";
import { PasswordField, TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { showFieldErrors, useNavigateLater, useSchemaForm } from "@/lib/forms";
import { useSetSession } from "@/lib/session";
import { AuthCard, textLink } from "./AuthCard";
import { signIn } from "./api";
import { safeNextPath } from "./RequireAuth";
import { type SignInValues, signInSchema } from "./rules";

const REDIRECT_DELAY_MS = 1200;

export default function SignInPage() {
  const { t } = useLingui();
  const search = useSearch();
  const setSession = useSetSession();
  const navigateLater = useNavigateLater();
  const form = useSchemaForm(signInSchema, { email: "", password: "" });
  const [redirecting, setRedirecting] = useState(false);
  const { register, formState } = form;
  const { errors } = formState;

  const onSubmit = async (values: SignInValues) => {
    try {
      const session = await signIn(values);
      setSession(session);
      setRedirecting(true);
      const name = session.user?.display_name ?? "";
      toast({ title: t`Welcome Back, ${name}. Redirecting to dashboard...` });
      navigateLater(safeNextPath(search), REDIRECT_DELAY_MS);
    } catch (error) {
      if (showFieldErrors(error, form, ["email", "password"])) return;
      toast({
        title: t`Sign In Error`,
        description: errorMessage(error),
        variant: "destructive",
      });
    }
  };

  const onInvalid = () =>
    toast({
      title: t`Validation Error`,
      description: t`Please correct the errors below`,
      variant: "destructive",
    });

  return (
    <AuthCard
      title={<Trans>Sign In</Trans>}
      intro={<Trans>Welcome back! Sign in to manage your campaigns.</Trans>}
    >
      {/* Sent before the app runs (the server renders this page), it posts, which the server refuses,
          rather than putting the password into a URL. */}
      <form method="post" noValidate onSubmit={form.handleSubmit(onSubmit, onInvalid)} className="space-y-4">
        <TextField
          label={t`Email`}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...register("email")}
        />
        <PasswordField
          label={t`Password`}
          autoComplete="current-password"
          error={errors.password?.message}
          {...register("password")}
        />
        <p className="text-right text-sm">
          <Link href="/forgot-password" className={textLink}>
            <Trans>Forgot password?</Trans>
          </Link>
        </p>
        <button
          type="submit"
          className={primaryButton}
          disabled={!formState.isValid || formState.isSubmitting || redirecting}
        >
          {formState.isSubmitting || redirecting ? <Trans>Signing In...</Trans> : <Trans>Sign In</Trans>}
        </button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-700">
        <Trans>
          Don't have an account?{" "}
          <Link href={search ? `/signup?${search}` : "/signup"} className={textLink}>
            Sign Up
          </Link>
        </Trans>
      </p>
      <p className="mt-2 text-center text-sm">
        <Link href="/" className={textLink}>
          <Trans>Back to Home</Trans>
        </Link>
      </p>
    </AuthCard>
  );
}
