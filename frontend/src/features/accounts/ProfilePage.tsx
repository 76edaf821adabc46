import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage, type User } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { SESSION_KEY } from "@/lib/session";
import { PROFILE_KEY, profileOptions, saveProfile } from "./api";
import { ChangePasswordDialog } from "./ChangePasswordDialog";
import { PersonalDataSection } from "./PersonalDataSection";
import { PhoneVerification } from "./PhoneVerification";
import { type ProfileValues, profileSchema } from "./rules";

const FIELDS = ["firstName", "lastName", "phone", "avatarUrl"] as const;

const valuesOf = (user: User): ProfileValues => ({
  firstName: user.first_name,
  lastName: user.last_name,
  phone: user.phone,
  avatarUrl: user.avatar_url,
});

export default function ProfilePage() {
  const { t } = useLingui();
  const profile = useQuery(profileOptions());

  return (
    <AppLayout>
      {profile.isPending ? (
        <PageSkeleton />
      ) : profile.isError ? (
        <PageLoadError
          message={errorMessage(
            profile.error,
            t`An error occurred while fetching your profile. Please try again.`,
          )}
          retry={() => void profile.refetch()}
        />
      ) : (
        <div className="mx-auto w-full max-w-2xl px-4 py-8">
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>My Profile</Trans>
          </h1>
          <ProfileForm user={profile.data} />
          <section className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
            <h2 className="mb-2 text-lg font-semibold text-slate-900">
              <Trans>Phone verification</Trans>
            </h2>
            <PhoneVerification user={profile.data} />
          </section>
          <section className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
            <h2 className="text-lg font-semibold text-slate-900">
              <Trans>Password</Trans>
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              <Trans>Change the password you use to sign in.</Trans>
            </p>
            <ChangePasswordDialog />
          </section>
          <PersonalDataSection />
        </div>
      )}
    </AppLayout>
  );
}

function ProfileForm({ user }: { user: User }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useSchemaForm(profileSchema, valuesOf(user));
  const { register, formState } = form;
  const { errors } = formState;

  const onSubmit = async (values: ProfileValues) => {
    try {
      const saved = await saveProfile({
        first_name: values.firstName,
        last_name: values.lastName,
        phone: values.phone,
        avatar_url: values.avatarUrl,
      });
      queryClient.setQueryData(PROFILE_KEY, saved);
      form.reset(valuesOf(saved));
      // The header greets the user by first name: ask the server again.
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      toast({ title: t`Profile updated successfully.` });
    } catch (error) {
      if (showFieldErrors(error, form, FIELDS)) return;
      toast({
        title: t`Error`,
        description: errorMessage(error),
        variant: "destructive",
      });
    }
  };

  const avatarUrl = form.watch("avatarUrl").trim();
  const initials = `${user.first_name.charAt(0)}${user.last_name.charAt(0)}`.toUpperCase() || "?";

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(onSubmit)}
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="mb-6 flex items-center gap-4">
        <Avatar url={errors.avatarUrl ? "" : avatarUrl} initials={initials} />
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold text-slate-900">
            {user.first_name} {user.last_name}
          </p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
        </div>
      </div>
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
        <TextField
          label={t`Email`}
          type="email"
          value={user.email}
          readOnly
          hint={<Trans>Your email address cannot be changed.</Trans>}
          className="sm:col-span-2"
        />
        <TextField
          label={t`Phone Number`}
          type="tel"
          autoComplete="tel"
          error={errors.phone?.message}
          className="sm:col-span-2"
          {...register("phone")}
        />
        <TextField
          label={t`Avatar URL`}
          type="url"
          inputMode="url"
          placeholder="https://"
          error={errors.avatarUrl?.message}
          className="sm:col-span-2"
          {...register("avatarUrl")}
        />
      </div>
      <button
        type="submit"
        className={`${primaryButton} mt-6 sm:w-auto`}
        disabled={!formState.isDirty || formState.isSubmitting}
      >
        {formState.isSubmitting ? <Trans>Saving...</Trans> : <Trans>Save Changes</Trans>}
      </button>
    </form>
  );
}

/** The avatar at `url`, or the initials when there is none or it does not load. */
function Avatar({ url, initials }: { url: string; initials: string }) {
  const { t } = useLingui();
  const [brokenUrl, setBrokenUrl] = useState("");
  const circle = "h-16 w-16 shrink-0 rounded-full";
  if (url && url !== brokenUrl) {
    return (
      <img
        src={url}
        alt={t`Your avatar`}
        className={`${circle} object-cover`}
        onError={() => setBrokenUrl(url)}
      />
    );
  }
  return (
    <span
      className={`${circle} flex items-center justify-center bg-brand-100 text-xl font-bold text-brand-800`}
      aria-hidden="true"
    >
      {initials}
    </span>
  );
}
