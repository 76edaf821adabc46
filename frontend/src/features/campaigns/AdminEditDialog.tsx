import { Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import type { RefObject } from "react";
import { primaryButton } from "@/components/buttonStyles";
import { SelectField, TextAreaField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { type Campaign, useCampaignCategories, useSaveCampaign } from "./api";
import { type AdminCampaignEditValues, adminCampaignEditSchema } from "./rules";

const FIELDS = ["title", "description", "goal", "category", "story"] as const;

type Props = {
  campaign: Campaign;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button outside this chunk that opened the dialog; focus goes back to it on close. */
  returnFocusTo: RefObject<HTMLElement | null>;
};

/** The admin's Edit Campaign dialog: title, description, goal, category and story, saved on the server. */
export default function AdminEditDialog({ campaign, open, onOpenChange, returnFocusTo }: Props) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="fixed inset-x-4 top-1/2 z-50 mx-auto max-h-[90vh] max-w-lg -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-5 shadow-xl sm:p-6"
        >
          <Dialog.Title className="text-xl font-semibold text-slate-900">
            <Trans>Edit Campaign</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            <Trans>All fields are required.</Trans>
          </Dialog.Description>
          {/* Rendered only while open, so the form starts from the saved campaign each time. */}
          <AdminEditForm campaign={campaign} onDone={() => onOpenChange(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function AdminEditForm({ campaign, onDone }: { campaign: Campaign; onDone: () => void }) {
  const { t } = useLingui();
  const save = useSaveCampaign(campaign.id);
  const categories = useCampaignCategories();
  const form = useSchemaForm(adminCampaignEditSchema, {
    title: campaign.title,
    description: campaign.description,
    goal: String(campaign.goal),
    category: campaign.category,
    story: campaign.story,
  });
  const { errors, isSubmitting } = form.formState;
  const choices = categories.data?.edit_form ?? [];
  // A campaign from the wizard may have a category outside the edit list: keep it selectable.
  const options = choices.some((choice) => choice.value === campaign.category)
    ? choices
    : [{ value: campaign.category, label: campaign.category_label }, ...choices];

  const onSubmit = async (values: AdminCampaignEditValues) => {
    try {
      await save({ ...values, goal: Number(values.goal) });
      toast({ title: t`Campaign Updated!` });
      onDone();
    } catch (error) {
      if (showFieldErrors(error, form, FIELDS)) return;
      toast({
        title: t`Error`,
        description: errorMessage(error),
        variant: "destructive",
      });
    }
  };

  // The select shows the campaign's category only if its options exist when it mounts.
  if (categories.isPending) {
    return (
      <p className="mt-5 text-slate-600" role="status">
        <Trans>Loading...</Trans>
      </p>
    );
  }
  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="mt-5 space-y-4">
      <TextField label={t`Title`} error={errors.title?.message} {...form.register("title")} />
      <TextAreaField
        label={t`Description`}
        rows={3}
        error={errors.description?.message}
        {...form.register("description")}
      />
      <TextField
        label={t`Goal (Ksh)`}
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        error={errors.goal?.message}
        {...form.register("goal")}
      />
      <SelectField label={t`Category`} error={errors.category?.message} {...form.register("category")}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      <TextAreaField label={t`Story`} rows={8} error={errors.story?.message} {...form.register("story")} />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Dialog.Close className="rounded-md border border-slate-300 px-4 py-2.5 font-medium text-slate-700 hover:bg-slate-50">
          <Trans>Cancel</Trans>
        </Dialog.Close>
        <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={isSubmitting}>
          {isSubmitting ? <Trans>Saving...</Trans> : <Trans>Save Changes</Trans>}
        </button>
      </div>
    </form>
  );
}
