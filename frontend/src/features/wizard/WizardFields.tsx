import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { type UseFormRegisterReturn, type UseFormReturn, useWatch } from "react-hook-form";
import { TextAreaField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { MediaPicker } from "./MediaPicker";
import type { CoverValues } from "./rules";
import { editLink } from "./WizardShell";

// Pieces both wizards share: the story fields, the cover step and the review's sections.

type StoryProps = {
  title: UseFormRegisterReturn;
  story: UseFormRegisterReturn;
  errors: { title?: string; story?: string };
};

/** Step 3: the campaign's title and story. */
export function StoryFields({ title, story, errors }: StoryProps) {
  const { t } = useLingui();
  return (
    <>
      <TextField label={t`Campaign title`} maxLength={200} error={errors.title} {...title} />
      <TextAreaField
        label={t`Your story`}
        rows={8}
        hint={<Trans>Explain who you are, what the money is for and why it matters.</Trans>}
        error={errors.story}
        {...story}
      />
    </>
  );
}

/** Step 4: the cover picker bound to a wizard's form (both name the cover fields alike). */
export function CoverStep<TValues extends CoverValues>({ form }: { form: UseFormReturn<TValues> }) {
  // Only the cover fields are touched; react-hook-form's types cannot see them through the generic.
  const cover = form as unknown as UseFormReturn<CoverValues>;
  const [mediaType, mediaUrl, youtubeUrl] = useWatch({
    control: cover.control,
    name: ["mediaType", "mediaUrl", "youtubeUrl"],
  });
  const { errors } = cover.formState;
  return (
    <MediaPicker
      value={{ mediaType, mediaUrl, youtubeUrl }}
      errors={{ mediaUrl: errors.mediaUrl?.message, youtubeUrl: errors.youtubeUrl?.message }}
      onChange={(patch) => {
        for (const [key, value] of Object.entries(patch) as [keyof CoverValues, string][]) {
          cover.setValue(key, value, { shouldDirty: true, shouldValidate: cover.formState.isSubmitted });
        }
        if (patch.mediaUrl) cover.clearErrors("mediaUrl");
      }}
    />
  );
}

/** A block of a review screen, with an Edit button when the step can be changed. */
export function ReviewSection({
  title,
  onEdit,
  editLabel,
  children,
}: {
  title: ReactNode;
  onEdit?(): void;
  editLabel?: string;
  children: ReactNode;
}) {
  return (
    <section className="rounded-lg border border-slate-200 p-4">
      <div className="flex items-center justify-between gap-3">
        <h3 className="font-semibold text-slate-900">{title}</h3>
        {onEdit && (
          <button type="button" className={editLink} onClick={onEdit} aria-label={editLabel}>
            <Trans>Edit</Trans>
          </button>
        )}
      </div>
      <div className="mt-2 text-slate-700">{children}</div>
    </section>
  );
}
