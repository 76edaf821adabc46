import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Link, useSearch } from "wouter";
import { primaryButton } from "@/components/buttonStyles";
import { PasswordField, TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { revalidateIfDirty, showFieldErrors, useNavigateLater, useSchemaForm } from "@/lib/forms";
import { useSetSession } from "@/lib/session";
import { AuthCard, textLink } from "./AuthCard";
import { signUp } from "./api";
import { safeNextPath } from "./RequireAuth";
import { type SignUpValues, signUpSchema } from "./rules";

const REDIRECT_DELAY_MS = 500;
const FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "idNumber",
  "password",
  "confirmPassword",
] as const;

export default function SignUpPage() {
  const search = useSearch();
  const { t } = useLingui();
  const setSession = useSetSession();
  const navigateLater = useNavigateLater();
  const [redirecting, setRedirecting] = useState(false);
  const form = useSchemaForm(signUpSchema, {
    firstName: "",
    lastName: "",
    email: "",
    phone: "",
    idNumber: "",
    password: "",
    confirmPassword: "",
  });
  const { register, formState } = form;
  const { errors } = formState;

  const onSubmit = async (values: SignUpValues) => {
    try {
      const session = await signUp({
        first_name: values.firstName,
        last_name: values.lastName,
        email: values.email,
        phone: values.phone,
        id_number: values.idNumber,
        password: values.password,
        confirm_password: values.confirmPassword,
      });
      setSession(session);
      setRedirecting(true);
      toast({ title: t`Sign Up Successful`, description: t`Your account has been created.` });
      // Back where the visitor came from (an invitation's link), else the dashboard.
      navigateLater(safeNextPath(search), REDIRECT_DELAY_MS);
    } catch (error) {
      if (showFieldErrors(error, form, FIELDS)) return;
      toast({
        title: t`Sign Up Error`,
        description: errorMessage(error),
        variant: "destructive",
      });
    }
  };

  return (
    <AuthCard
      title={<Trans>Create Account</Trans>}
      intro={<Trans>Create a free account to start fundraising with Harambee.</Trans>}
    >
      {/* Sent before the app runs (the server renders this page), it posts, which the server refuses,
          rather than putting the password into a URL. */}
      <form method="post" noValidate onSubmit={form.handleSubmit(onSubmit)} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t`First Name`}
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...register("firstName")}
          />
          <TextField
            label={t`Last Name`}
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...register("lastName")}
          />
        </div>
        <TextField
          label={t`Email`}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...register("email")}
        />
        <TextField
          label={t`Phone Number`}
          type="tel"
          autoComplete="tel"
          placeholder="0712345678"
          error={errors.phone?.message}
          {...register("phone")}
        />
        <TextField
          label={t`ID Number`}
          autoComplete="off"
          error={errors.idNumber?.message}
          {...register("idNumber")}
        />
        <PasswordField
          label={t`Password`}
          autoComplete="new-password"
          hint={<Trans>At least 8 characters, with a letter and a symbol.</Trans>}
          error={errors.password?.message}
          {...register("password", { onChange: revalidateIfDirty(form, "confirmPassword") })}
        />
        <PasswordField
          label={t`Confirm Password`}
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register("confirmPassword")}
        />
        <button type="submit" className={primaryButton} disabled={formState.isSubmitting || redirecting}>
          {formState.isSubmitting || redirecting ? (
            <Trans>Creating Account...</Trans>
          ) : (
            <Trans>Create Account</Trans>
          )}
        </button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-700">
        <Trans>
          Already have an account?{" "}
          <Link href={search ? `/signin?${search}` : "/signin"} className={textLink}>
            Sign In
          </Link>
        </Trans>
      </p>
    </AuthCard>
  );
}
