import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useMemo, useState } from "react";
import { Controller, type FieldPath, type UseFormReturn } from "react-hook-form";
import { useLocation } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { PageSkeleton } from "@/components/PageSkeleton";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { formatCalendarDate } from "@/features/campaigns/links";
import { todayIso } from "@/features/campaigns/rules";
import {
  accountName,
  type CollectionAccountChoice,
  collectionAccountsPayload,
  isAccountKind,
  METHOD_FIELDS,
  METHOD_LABELS,
} from "@/features/collection-accounts/campaignCollectionAccounts";
import { useOrganizations } from "@/features/organizations/api";
import { CreateOrganizationForm } from "@/features/organizations/OrganizationForm";
import { useHasPaid } from "@/features/payments/api";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { useSchemaForm } from "@/lib/forms";
import { formatKes, formatKsh } from "@/lib/money";
import { AfterLaunchDialogs } from "./AfterLaunchDialogs";
import { campaignAccountsOptions, createPledgingCampaign, type Draft, draftKey } from "./api";
import { CategoryPicker, useCategoryLabel } from "./CategoryPicker";
import { CollectionAccountsEditor } from "./CollectionAccountsEditor";
import { CoverPreview } from "./MediaPicker";
import { OrganizationPicker } from "./OrganizationPicker";
import {
  type CoverValues,
  coverPayload,
  EMPTY_PLEDGE_WIZARD,
  PLEDGE_STEP_FIELDS,
  type PledgeWizardValues,
  pledgeValuesFromDraft,
  pledgeWizardSchema,
} from "./rules";
import { continueStep, isLastStep, previousStep, resumeStep, type StepNumber, wizardSteps } from "./steps";
import { useWizardDraft } from "./useWizardDraft";
import { CoverStep, ReviewSection, StoryFields } from "./WizardFields";
import { WizardShell } from "./WizardShell";

type Form = UseFormReturn<PledgeWizardValues>;

/** The pledge campaign wizard (/pledge/create-campaign): waits for the subscription check and the draft. */
export default function CreateCampaignPage() {
  const hasPaid = useHasPaid();
  const { draft, save } = useWizardDraft("pledging");
  const organizations = useOrganizations();
  if (hasPaid.isPending || draft.isPending || organizations.isPending) {
    return (
      <AppLayout>
        <PageSkeleton />
      </AppLayout>
    );
  }
  // Organizations first: a campaign belongs to one, whose name givers read as the one they pay.
  if (organizations.data && !organizations.data.some((organization) => organization.can_create_campaigns)) {
    return (
      <AppLayout>
        <div className="mx-auto w-full max-w-2xl px-4 py-8">
          <h1 className="mb-4 text-2xl font-bold text-slate-900">
            <Trans>Create a Pledge Campaign</Trans>
          </h1>
          <CreateOrganizationForm
            intro={
              <Trans>
                First, the church, ministry, school or group the campaign is for: givers read its name as the
                one they pay, and you can invite its treasurer and ushers.
              </Trans>
            }
          />
        </div>
      </AppLayout>
    );
  }
  // If the check fails, the wizard asks for collection accounts; the server decides the status anyway.
  return <PledgeWizard subscriber={hasPaid.data?.has_paid === true} draft={draft.data ?? null} save={save} />;
}

/** A server field_errors key as the form's field: collection_accounts.0.till_number -> collectionAccounts.0.details.till_number. */
function formField(key: string, mediaType: CoverValues["mediaType"]): FieldPath<PledgeWizardValues> | null {
  const simple: Record<string, FieldPath<PledgeWizardValues>> = {
    title: "title",
    category: "category",
    goal: "goal",
    story: "story",
    end_date: "endDate",
    media_url: mediaType === "youtube" ? "youtubeUrl" : "mediaUrl",
    collection_accounts: "collectionAccounts",
  };
  if (simple[key]) return simple[key];
  const option = /^collection_accounts\.(\d+)\.(\w+)$/.exec(key);
  if (!option) return null;
  const [, index, name] = option;
  return name === "kind"
    ? `collectionAccounts.${Number(index)}.method`
    : name === "account_id"
      ? `collectionAccounts.${Number(index)}.accountId`
      : `collectionAccounts.${Number(index)}.details.${name}`;
}

function PledgeWizard({
  subscriber,
  draft,
  save,
}: {
  subscriber: boolean;
  draft: Draft | null;
  save(stepData: Record<string, unknown>, currentStep: number): Promise<void>;
}) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const steps = useMemo(() => wizardSteps(subscriber), [subscriber]);
  const schema = useMemo(() => pledgeWizardSchema({ collectionAccountsRequired: !subscriber }), [subscriber]);
  const form = useSchemaForm(schema, draft ? pledgeValuesFromDraft(draft.step_data) : EMPTY_PLEDGE_WIZARD);
  const [step, setStep] = useState<StepNumber>(() => (draft ? resumeStep(steps, draft.current_step) : 1));
  const [launchedId, setLaunchedId] = useState<number | null>(null);
  const owned = (useOrganizations().data ?? []).filter((organization) => organization.can_create_campaigns);
  const [organizationId, setOrganizationId] = useState<number | null>(null);
  const [organizationError, setOrganizationError] = useState("");
  const choosesOrganization = owned.length > 1;
  // Set by the review's Edit buttons: Continue then returns to the review.
  const [editingFromReview, setEditingFromReview] = useState(false);

  const titles: Record<StepNumber, string> = {
    1: t`Choose category`,
    2: t`Set your goal`,
    3: t`Tell your story`,
    4: t`Add media`,
    5: t`Collection accounts`,
    6: t`Review & publish`,
  };

  /** Every step change saves the draft (spec section 4). */
  function goTo(next: StepNumber) {
    setStep(next);
    if (isLastStep(steps, next)) setEditingFromReview(false);
    void save(form.getValues(), next);
  }

  function editFromReview(next: StepNumber) {
    setEditingFromReview(true);
    goTo(next);
  }

  /** The first step with an invalid field, to show its errors. */
  function firstInvalidStep(): StepNumber | undefined {
    return steps.find((candidate) =>
      (PLEDGE_STEP_FIELDS[candidate] as readonly FieldPath<PledgeWizardValues>[]).some(
        (field) => form.getFieldState(field).invalid,
      ),
    );
  }

  const launch = useMutation({
    mutationFn: async (values: PledgeWizardValues) =>
      await createPledgingCampaign(
        {
          title: values.title,
          category: values.category,
          goal: Number(values.goal),
          story: values.story,
          end_date: values.endDate,
          ...coverPayload(values),
          collection_accounts: subscriber ? [] : collectionAccountsPayload(values.collectionAccounts),
          organization_id: choosesOrganization ? organizationId : null,
        },
        t`Failed to create campaign.`,
      ),
    onSuccess: (created) => {
      // The dashboard and lists now have a new campaign. The draft, completed on the server, is left
      // alone: refetching it would restart the wizard under the dialogs that follow.
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== draftKey("pledging")[0],
      });
      if (!created?.id) {
        navigate("/dashboard");
      } else if (subscriber) {
        toast({ title: t`Success!`, description: t`Your campaign is live.` });
        navigate("/dashboard");
      } else {
        setLaunchedId(created.id);
      }
    },
    onError: (error) => {
      if (error instanceof ApiRequestError) {
        const mediaType = form.getValues("mediaType");
        for (const [key, message] of Object.entries(error.fieldErrors)) {
          const field = formField(key, mediaType);
          if (field) form.setError(field, { type: "server", message });
        }
        const invalid = firstInvalidStep();
        if (invalid) setStep(invalid);
      }
      toast({
        title: t`Error`,
        description: errorMessage(error, t`Failed to create campaign.`),
        variant: "destructive",
      });
    },
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (choosesOrganization && organizationId === null) {
      setOrganizationError(t`Please choose the organization this campaign belongs to.`);
      if (step !== 1) setStep(1);
      return;
    }
    if (!isLastStep(steps, step)) {
      if (await form.trigger(PLEDGE_STEP_FIELDS[step], { shouldFocus: true })) {
        goTo(continueStep(steps, step, editingFromReview));
      }
      return;
    }
    if (!(await form.trigger())) {
      const invalid = firstInvalidStep();
      if (invalid) goTo(invalid);
      return;
    }
    launch.mutate(form.getValues());
  }

  return (
    <>
      <WizardShell
        heading={<Trans>Create a Pledge Campaign</Trans>}
        steps={steps}
        titles={titles}
        step={step}
        onBack={() => goTo(previousStep(steps, step))}
        onSubmit={onSubmit}
        busy={launch.isPending || launchedId !== null}
        finish={launch.isPending ? <Trans>Creating Campaign...</Trans> : <Trans>Launch Campaign</Trans>}
      >
        {step === 1 && choosesOrganization && (
          <OrganizationPicker
            organizations={owned}
            value={organizationId}
            error={organizationError || undefined}
            onChange={(id) => {
              setOrganizationId(id);
              setOrganizationError("");
            }}
          />
        )}
        {step === 1 && (
          <Controller
            control={form.control}
            name="category"
            render={({ field, fieldState }) => (
              <CategoryPicker
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
        )}
        {step === 2 && <GoalStep form={form} />}
        {step === 3 && (
          <StoryFields
            title={form.register("title")}
            story={form.register("story")}
            errors={{
              title: form.formState.errors.title?.message,
              story: form.formState.errors.story?.message,
            }}
          />
        )}
        {step === 4 && <CoverStep form={form} />}
        {step === 5 && (
          <CollectionAccountsEditor
            form={form}
            organizationId={choosesOrganization ? organizationId : null}
          />
        )}
        {step === 6 && (
          <Review
            form={form}
            subscriber={subscriber}
            organizationId={choosesOrganization ? organizationId : null}
            onEdit={editFromReview}
          />
        )}
      </WizardShell>
      {launchedId !== null && (
        <AfterLaunchDialogs campaignId={launchedId} campaignTitle={form.getValues("title")} />
      )}
    </>
  );
}

function GoalStep({ form }: { form: Form }) {
  const { t } = useLingui();
  const { errors } = form.formState;
  const typical = formatKes(50_000);
  return (
    <>
      <TextField
        label={t`Goal amount (KES)`}
        inputMode="numeric"
        placeholder="100000"
        hint={<Trans>Tip: fundraisers typically aim for {typical} or more.</Trans>}
        error={errors.goal?.message}
        {...form.register("goal")}
      />
      <TextField
        label={t`End date`}
        type="date"
        min={todayIso()}
        error={errors.endDate?.message}
        {...form.register("endDate")}
      />
    </>
  );
}

function Review({
  form,
  subscriber,
  organizationId,
  onEdit,
}: {
  form: Form;
  subscriber: boolean;
  organizationId: number | null;
  onEdit(step: StepNumber): void;
}) {
  const { t, i18n } = useLingui();
  const values = form.getValues();
  const category = useCategoryLabel(values.category);
  return (
    <div className="space-y-4">
      <p className="text-slate-700">
        <Trans>Check your campaign before you launch it.</Trans>
      </p>
      <ReviewSection title={<Trans>Category</Trans>} onEdit={() => onEdit(1)} editLabel={t`Edit category`}>
        {category}
      </ReviewSection>
      <ReviewSection title={<Trans>Goal</Trans>} onEdit={() => onEdit(2)} editLabel={t`Edit goal`}>
        <p className="text-lg font-semibold text-slate-900">{formatKsh(Number(values.goal))}</p>
        <p className="text-sm">
          <Trans>Ends on {formatCalendarDate(values.endDate, i18n.locale)}</Trans>
        </p>
      </ReviewSection>
      <ReviewSection title={<Trans>Story</Trans>} onEdit={() => onEdit(3)} editLabel={t`Edit story`}>
        <p className="font-semibold text-slate-900">{values.title}</p>
        <p className="mt-1 line-clamp-6 whitespace-pre-line">{values.story}</p>
      </ReviewSection>
      <ReviewSection title={<Trans>Media</Trans>}>
        <div className="overflow-hidden rounded-md">
          <CoverPreview value={values} />
        </div>
      </ReviewSection>
      {!subscriber && (
        <ReviewSection title={<Trans>Collection accounts</Trans>}>
          <ul className="space-y-2">
            {values.collectionAccounts.map((option, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the entries have no id; their order is theirs
              <li key={index}>
                <CollectionAccountSummary option={option} organizationId={organizationId} />
              </li>
            ))}
          </ul>
        </ReviewSection>
      )}
    </div>
  );
}

/** One of the campaign's accounts as the review step shows it. */
function CollectionAccountSummary({
  option,
  organizationId,
}: {
  option: CollectionAccountChoice;
  organizationId: number | null;
}) {
  const { i18n } = useLingui();
  const accounts = useQuery(campaignAccountsOptions(organizationId)).data ?? [];
  const existing =
    option.method === "existing" && accounts.find((account) => String(account.id) === option.accountId);
  if (existing) return <span>{accountName(existing, i18n._(METHOD_LABELS[existing.kind]))}</span>;
  if (!isAccountKind(option.method)) return null;
  const details = METHOD_FIELDS[option.method]
    .map(({ name }) => option.details[name]?.trim())
    .filter(Boolean);
  return (
    <>
      <span className="font-medium text-slate-900">{i18n._(METHOD_LABELS[option.method])}</span>
      {": "}
      {details.join(", ")}
    </>
  );
}
