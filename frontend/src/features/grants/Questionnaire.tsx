import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import * as v from "valibot";
import { primaryButton, secondaryButton } from "@/components/buttonStyles";
import { TextAreaField } from "@/components/FieldControls";
import { PageSkeleton } from "@/components/PageSkeleton";
import { ProgressBar } from "@/components/ProgressBar";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { createDraft, updateDraft } from "@/features/wizard/api";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import {
  type OrganizationProfile,
  PROFILE_KEY,
  SEARCH_KEY,
  saveOrganizationProfile,
  useGrantDraft,
} from "./api";
import {
  type Answers,
  answersFrom,
  LAST_STEP,
  QUESTIONS,
  type Question,
  questionAt,
  resumeStep,
  stepOf,
  toProfileBody,
} from "./questionnaire";

type Props = {
  /** The saved profile when the user edits it; null the first time. */
  profile: OrganizationProfile | null;
  onDone(): void;
  onCancel?(): void;
};

/** The six-step organization questionnaire, resumed from the newest open grant_funding draft. */
export function Questionnaire({ profile, onDone, onCancel }: Props) {
  const { t } = useLingui();
  const draft = useGrantDraft();
  useEffect(() => {
    if (draft.isError) toast({ title: t`Failed to load draft`, variant: "destructive" });
  }, [draft.isError, t]);

  if (draft.isPending) return <PageSkeleton />;
  const resumed = draft.data ?? null;
  const answers = resumed ? answersFrom(resumed.step_data) : answersFrom(profile);
  return (
    <QuestionnaireForm
      draftId={resumed?.id ?? null}
      initialAnswers={answers}
      initialStep={resumed ? resumeStep(resumed.current_step, answers) : 0}
      onDone={onDone}
      onCancel={onCancel}
    />
  );
}

type QuestionView = {
  label: string;
  hint: string;
  maxLength: number;
  multiline?: boolean;
  suggestions?: string[];
  autoComplete?: string;
};

function QuestionnaireForm({
  draftId,
  initialAnswers,
  initialStep,
  onDone,
  onCancel,
}: {
  draftId: number | null;
  initialAnswers: Answers;
  initialStep: number;
  onDone(): void;
  onCancel?(): void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const listId = useId();
  const [step, setStep] = useState(initialStep);
  const [completing, setCompleting] = useState(false);

  const schema = useMemo(() => {
    const answer = v.pipe(v.string(), v.trim(), v.nonEmpty(t`Please answer this question.`));
    return v.object({
      organizationName: answer,
      mission: answer,
      focusAreas: answer,
      organizationType: answer,
      location: answer,
      fundingRange: answer,
    });
  }, [t]);
  const form = useSchemaForm<Answers>(schema, initialAnswers);

  const views: Record<Question, QuestionView> = {
    organizationName: {
      label: t`Organization Name`,
      hint: t`The name of your church, ministry or organization.`,
      maxLength: 200,
      autoComplete: "organization",
    },
    mission: {
      label: t`Mission Statement`,
      hint: t`In a few sentences: what your organization does, and for whom.`,
      maxLength: 2000,
      multiline: true,
    },
    focusAreas: {
      label: t`Focus Areas`,
      hint: t`Separate them with commas, e.g. education, clean water, youth.`,
      maxLength: 500,
    },
    organizationType: {
      label: t`Organization Type`,
      hint: t`For example a church, ministry, NGO, community-based organization or school.`,
      maxLength: 200,
      suggestions: [
        t`Church`,
        t`Ministry`,
        t`Faith-based organization`,
        t`Non-profit / NGO`,
        t`Community-based organization`,
        t`School`,
        t`Self-help group`,
      ],
    },
    location: {
      label: t`Location`,
      hint: t`Town or county and country, e.g. Nairobi, Kenya.`,
      maxLength: 200,
      autoComplete: "address-level2",
    },
    fundingRange: {
      label: t`Funding Range`,
      hint: t`In US dollars, e.g. $10,000 - $50,000 or up to $25,000.`,
      maxLength: 200,
      suggestions: [t`Up to $25,000`, t`$25,001 - $50,000`, t`$50,001 - $100,000`, t`$100,001 - $500,000`],
    },
  };

  // Saves run one after another, so the first one creates the draft and the others update it.
  const draftRef = useRef(draftId);
  const saving = useRef<Promise<void>>(Promise.resolve());
  function saveDraft(currentStep: number, completed = false): Promise<void> {
    const body = { step_data: toProfileBody(form.getValues()), current_step: currentStep };
    saving.current = saving.current.then(async () => {
      const id = draftRef.current;
      try {
        if (id === null) {
          if (completed) return;
          const created = await createDraft({ tool_type: "grant_funding", ...body });
          draftRef.current = created.id;
        } else {
          await updateDraft(id, completed ? { ...body, is_completed: true } : body);
        }
      } catch (error) {
        // A draft deleted meanwhile: the next save starts a new one.
        if (error instanceof ApiRequestError && error.status === 404) draftRef.current = null;
        toast({
          title: id === null ? t`Failed to save draft` : t`Failed to update draft`,
          variant: "destructive",
        });
      }
    });
    return saving.current;
  }

  // The new question gets the focus (not on the first render: the page has just loaded).
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    form.setFocus(questionAt(step));
  }, [step, form]);

  function goTo(next: number) {
    setStep(next);
    void saveDraft(next);
  }

  async function complete() {
    setCompleting(true);
    try {
      const saved = await saveOrganizationProfile(toProfileBody(form.getValues()));
      await saveDraft(LAST_STEP, true);
      queryClient.setQueryData(PROFILE_KEY, saved);
      // Grants were ranked against the old answers.
      void queryClient.invalidateQueries({ queryKey: SEARCH_KEY });
      onDone();
    } catch (error) {
      setCompleting(false);
      const steps = error instanceof ApiRequestError ? Object.keys(error.fieldErrors).map(stepOf) : [];
      const firstWrong = Math.min(...steps.filter((index) => index >= 0));
      if (Number.isFinite(firstWrong)) setStep(firstWrong);
      if (showFieldErrors(error, form, QUESTIONS)) return;
      toast({
        title: t`Error`,
        description: errorMessage(error),
        variant: "destructive",
      });
    }
  }

  async function next() {
    if (!(await form.trigger(questionAt(step)))) return;
    if (step < LAST_STEP) goTo(step + 1);
    else await complete();
  }

  const question = questionAt(step);
  const view = views[question];
  const error = form.formState.errors[question]?.message;
  const number = step + 1;
  const total = QUESTIONS.length;

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
        <Trans>Tell us about your organization</Trans>
      </h1>
      <p className="mt-2 text-slate-600">
        <Trans>
          Six short questions, so that we can match you with grants. Your answers are saved as you go.
        </Trans>
      </p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void next();
        }}
        className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <p className="mb-2 text-sm font-medium text-slate-700">
          <Trans>
            Question {number} of {total}
          </Trans>
        </p>
        <ProgressBar percent={(number / total) * 100} label={t`Questionnaire progress`} />
        <div className="mt-6">
          {view.multiline ? (
            <TextAreaField
              key={question}
              label={view.label}
              hint={view.hint}
              error={error}
              rows={5}
              maxLength={view.maxLength}
              {...form.register(question)}
            />
          ) : (
            <TextField
              key={question}
              label={view.label}
              hint={view.hint}
              error={error}
              maxLength={view.maxLength}
              autoComplete={view.autoComplete ?? "off"}
              list={view.suggestions ? listId : undefined}
              {...form.register(question)}
            />
          )}
          {view.suggestions && (
            <datalist id={listId}>
              {view.suggestions.map((suggestion) => (
                <option key={suggestion} value={suggestion} />
              ))}
            </datalist>
          )}
        </div>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <button
            type="button"
            className={`${secondaryButton} sm:w-auto disabled:cursor-not-allowed disabled:opacity-50`}
            disabled={step === 0 || completing}
            onClick={() => goTo(step - 1)}
          >
            <Trans>Back</Trans>
          </button>
          <button type="submit" className={`${primaryButton} sm:w-auto`} disabled={completing}>
            {step < LAST_STEP ? (
              <Trans>Next</Trans>
            ) : completing ? (
              <Trans>Saving...</Trans>
            ) : (
              <Trans>Complete</Trans>
            )}
          </button>
        </div>
        {onCancel && (
          <button
            type="button"
            onClick={onCancel}
            className="mt-4 text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            <Trans>Cancel and keep my saved profile</Trans>
          </button>
        )}
      </form>
    </div>
  );
}
