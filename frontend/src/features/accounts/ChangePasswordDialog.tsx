import { Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { primaryButton } from "@/components/buttonStyles";
import { PasswordField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { revalidateIfDirty, useSchemaForm } from "@/lib/forms";
import { changePassword } from "./api";
import { type PasswordChangeValues, passwordChangeSchema } from "./rules";

/** The profile's Change Password button and dialog. */
export function ChangePasswordDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="mt-4 rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50">
        <Trans>Change Password</Trans>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content className="fixed inset-x-4 top-1/2 z-50 mx-auto max-h-[90vh] max-w-md -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-5 shadow-xl sm:p-6">
          <Dialog.Title className="text-xl font-semibold text-slate-900">
            <Trans>Change Password</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            <Trans>Enter your current password, then choose a new one.</Trans>
          </Dialog.Description>
          {/* Rendered only while open, so the form starts empty each time. */}
          <PasswordChangeForm onDone={() => setOpen(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PasswordChangeForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useSchemaForm(passwordChangeSchema, {
    currentPassword: "",
    newPassword: "",
    confirmPassword: "",
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = async (values: PasswordChangeValues) => {
    setFailure(null);
    try {
      await changePassword({
        current_password: values.currentPassword,
        new_password: values.newPassword,
        confirm_password: values.confirmPassword,
      });
      toast({ title: t`Password updated successfully.` });
      onDone();
    } catch (error) {
      // e.g. 'Old password is incorrect.'
      setFailure(errorMessage(error));
    }
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="mt-5 space-y-4">
      {failure && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {failure}
        </p>
      )}
      <PasswordField
        label={t`Current Password`}
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...form.register("currentPassword")}
      />
      <PasswordField
        label={t`New Password`}
        autoComplete="new-password"
        hint={<Trans>At least 8 characters, with numbers, letters and symbols.</Trans>}
        error={errors.newPassword?.message}
        {...form.register("newPassword", { onChange: revalidateIfDirty(form, "confirmPassword") })}
      />
      <PasswordField
        label={t`Confirm New Password`}
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...form.register("confirmPassword")}
      />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Dialog.Close className="rounded-md border border-slate-300 px-4 py-2.5 font-medium text-slate-700 hover:bg-slate-50">
          <Trans>Cancel</Trans>
        </Dialog.Close>
        <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={isSubmitting}>
          {isSubmitting ? <Trans>Updating...</Trans> : <Trans>Update Password</Trans>}
        </button>
      </div>
    </form>
  );
}
