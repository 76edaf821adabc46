import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { Controller, type FieldPath, type UseFormReturn } from "react-hook-form";
import { SelectField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { formatCalendarDate } from "@/features/campaigns/links";
import { CategoryPicker, useCategoryLabel } from "@/features/wizard/CategoryPicker";
import { CoverPreview } from "@/features/wizard/MediaPicker";
import {
  coverPayload,
  DEFAULT_DURATION_DAYS,
  endDateAfter,
  FUNDRAISER_STEP_FIELDS,
  type FundraiserWizardValues,
  fundraiserWizardSchema,
  LEGACY_BANKS,
} from "@/features/wizard/rules";
import { isLastStep, nextStep, previousStep, type StepNumber, wizardSteps } from "@/features/wizard/steps";
import { CoverStep, ReviewSection, StoryFields } from "@/features/wizard/WizardFields";
import { WizardShell } from "@/features/wizard/WizardShell";
import { ApiRequestError } from "@/lib/api/client";
import { useNavigateLater, useSchemaForm } from "@/lib/forms";
import { formatKsh } from "@/lib/money";
import { createFundraiser } from "./api";

const REDIRECT_DELAY_MS = 1200;
const STEPS = wizardSteps(false);
type Form = UseFormReturn<FundraiserWizardValues>;

// Server field_errors keys of POST /api/campaigns and the form's fields.
const SERVER_FIELDS: Record<string, FieldPath<FundraiserWizardValues>> = {
  title: "title",
  category: "category",
  goal: "goal",
  story: "story",
  duration_days: "duration",
  bank_name: "bankName",
  account_name: "accountName",
  account_no: "accountNo",
};

/** The legacy fundraiser wizard (/start-fundraiser): six steps, bank details, 'Create Fundraiser'. */
export default function StartFundraiserPage() {
  const { t } = useLingui();
  const navigateLater = useNavigateLater();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<StepNumber>(1);
  const [created, setCreated] = useState(false);
  const form = useSchemaForm<FundraiserWizardValues>(fundraiserWizardSchema, {
    category: "",
    goal: "",
    duration: String(DEFAULT_DURATION_DAYS),
    title: "",
    story: "",
    mediaType: "upload",
    mediaUrl: "",
    youtubeUrl: "",
    bankName: "",
    accountName: "",
    accountNo: "",
  });
  const { errors } = form.formState;

  const titles: Record<StepNumber, string> = {
    1: t`Choose category`,
    2: t`Goal and duration`,
    3: t`Tell your story`,
    4: t`Add media`,
    5: t`Bank details`,
    6: t`Review & publish`,
  };

  function firstInvalidStep(): StepNumber | undefined {
    return STEPS.find((candidate) =>
      (FUNDRAISER_STEP_FIELDS[candidate] as readonly FieldPath<FundraiserWizardValues>[]).some(
        (field) => form.getFieldState(field).invalid,
      ),
    );
  }

  const create = useMutation({
    mutationFn: async (values: FundraiserWizardValues) =>
      await createFundraiser(
        {
          title: values.title,
          category: values.category,
          goal: Number(values.goal),
          story: values.story,
          duration_days: Number(values.duration),
          ...coverPayload(values),
          bank_name: values.bankName,
          account_name: values.accountName,
          account_no: values.accountNo,
        },
        t`Failed to create fundraiser.`,
      ),
    onSuccess: (answer) => {
      setCreated(true);
      void queryClient.invalidateQueries();
      toast({ title: t`Success!`, description: t`Your fundraiser was created successfully.` });
      navigateLater(answer?.id ? `/campaign/${answer.id}` : "/fundraiser-success", REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      if (error instanceof ApiRequestError) {
        const mediaType = form.getValues("mediaType");
        for (const [key, message] of Object.entries(error.fieldErrors)) {
          const field =
            key === "media_url" ? (mediaType === "youtube" ? "youtubeUrl" : "mediaUrl") : SERVER_FIELDS[key];
          if (field) form.setError(field, { type: "server", message });
        }
        const invalid = firstInvalidStep();
        if (invalid) setStep(invalid);
      }
      toast({ title: t`Error`, description: t`Failed to create fundraiser.`, variant: "destructive" });
    },
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isLastStep(STEPS, step)) {
      if (await form.trigger(FUNDRAISER_STEP_FIELDS[step], { shouldFocus: true }))
        setStep(nextStep(STEPS, step));
      return;
    }
    if (!(await form.trigger())) {
      const invalid = firstInvalidStep();
      if (invalid) setStep(invalid);
      return;
    }
    create.mutate(form.getValues());
  }

  const storyFields = (
    <StoryFields
      title={form.register("title")}
      story={form.register("story")}
      errors={{ title: errors.title?.message, story: errors.story?.message }}
    />
  );

  return (
    <WizardShell
      heading={<Trans>Start a Fundraiser</Trans>}
      steps={STEPS}
      titles={titles}
      step={step}
      onBack={() => setStep(previousStep(STEPS, step))}
      onSubmit={onSubmit}
      busy={create.isPending || created}
      finish={create.isPending ? <Trans>Creating Fundraiser...</Trans> : <Trans>Create Fundraiser</Trans>}
    >
      {step === 1 && (
        <Controller
          control={form.control}
          name="category"
          render={({ field, fieldState }) => (
            <CategoryPicker value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
      )}
      {step === 2 && <GoalAndDuration form={form} />}
      {step === 3 && storyFields}
      {step === 4 && <CoverStep form={form} />}
      {step === 5 && (
        <>
          <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
            <Trans>Please check your bank details: they cannot be changed after setup.</Trans>
          </p>
          <BankFields form={form} />
        </>
      )}
      {step === 6 && <Review form={form} storyFields={storyFields} onEdit={setStep} />}
    </WizardShell>
  );
}

function GoalAndDuration({ form }: { form: Form }) {
  const { t, i18n } = useLingui();
  const { errors } = form.formState;
  const days = Number(form.watch("duration"));
  const ends =
    Number.isInteger(days) && days >= 1 ? formatCalendarDate(endDateAfter(days), i18n.locale) : null;
  return (
    <>
      <TextField
        label={t`Goal amount (KES)`}
        inputMode="numeric"
        placeholder="100000"
        error={errors.goal?.message}
        {...form.register("goal")}
      />
      <TextField
        label={t`Duration (days)`}
        inputMode="numeric"
        hint={ends ? <Trans>Your fundraiser ends on {ends}.</Trans> : undefined}
        error={errors.duration?.message}
        {...form.register("duration")}
      />
    </>
  );
}

function BankFields({ form }: { form: Form }) {
  const { t } = useLingui();
  const { errors } = form.formState;
  return (
    <>
      <SelectField label={t`Bank name`} error={errors.bankName?.message} {...form.register("bankName")}>
        <option value="">{t`Select your bank`}</option>
        {LEGACY_BANKS.map((bank) => (
          <option key={bank} value={bank}>
            {bank}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t`Account name`}
        autoComplete="off"
        error={errors.accountName?.message}
        {...form.register("accountName")}
      />
      <TextField
        label={t`Account number`}
        inputMode="numeric"
        autoComplete="off"
        error={errors.accountNo?.message}
        {...form.register("accountNo")}
      />
    </>
  );
}

function Review({
  form,
  storyFields,
  onEdit,
}: {
  form: Form;
  storyFields: ReactNode;
  onEdit(step: StepNumber): void;
}) {
  const { t, i18n } = useLingui();
  const values = form.getValues();
  const category = useCategoryLabel(values.category);
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <ReviewSection title={<Trans>Goal</Trans>} onEdit={() => onEdit(2)} editLabel={t`Edit goal`}>
          <p className="text-lg font-semibold text-slate-900">{formatKsh(Number(values.goal))}</p>
          <p className="text-sm">
            <Trans>Ends on {formatCalendarDate(endDateAfter(Number(values.duration)), i18n.locale)}</Trans>
          </p>
        </ReviewSection>
        <ReviewSection title={<Trans>Category</Trans>} onEdit={() => onEdit(1)} editLabel={t`Edit category`}>
          {category}
        </ReviewSection>
      </div>
      <ReviewSection title={<Trans>Media</Trans>} onEdit={() => onEdit(4)} editLabel={t`Edit media`}>
        <div className="overflow-hidden rounded-md">
          <CoverPreview value={values} />
        </div>
      </ReviewSection>
      <ReviewSection title={<Trans>Story</Trans>}>
        <div className="space-y-4">{storyFields}</div>
      </ReviewSection>
      <ReviewSection title={<Trans>Bank details</Trans>}>
        <div className="space-y-4">
          <BankFields form={form} />
        </div>
      </ReviewSection>
    </div>
  );
}
