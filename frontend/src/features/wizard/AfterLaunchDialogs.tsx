import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Plural, Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useState } from "react";
import * as v from "valibot";
import { useLocation } from "wouter";
import { CheckboxField, TextAreaField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { profileSchema, signInSchema } from "@/features/accounts/rules";
import { useFees } from "@/features/payments/api";
import { FeeSummary } from "@/features/payments/FeeSummary";
import { errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { i18n as lingui } from "@/lib/i18n";
import { formatKsh } from "@/lib/money";
import { sendWizardFeedback } from "./api";
import { buttonPrimary, buttonSecondary } from "./WizardShell";

// The payment dialog's code (M-Pesa and card flows) loads only when the organizer starts paying.
const PaymentDialog = lazy(() => import("@/features/payments/PaymentDialog"));

const say = (descriptor: MessageDescriptor) => () => lingui._(descriptor);
const TEXT_MAX_LENGTH = 2000;
const RATINGS = ["1", "2", "3", "4", "5"] as const;

const optionalText = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(TEXT_MAX_LENGTH, say(msg`Please keep this under 2,000 characters.`)),
);
const reachable = (contact: string) =>
  v.safeParse(signInSchema.entries.email, contact).success ||
  v.safeParse(profileSchema.entries.phone, contact.trim()).success;

// The rules of wizard_feedback_create in backend/campaigns/wizard.py.
const feedbackSchema = v.pipe(
  v.object({
    liked: optionalText,
    confusing: optionalText,
    featuresWanted: optionalText,
    rating: v.picklist(RATINGS),
    wantsInterview: v.boolean(),
    contact: v.string(),
  }),
  v.forward(
    v.partialCheck(
      [["wantsInterview"], ["contact"]],
      (input) => !input.wantsInterview || reachable(input.contact),
      say(msg`Please enter your e-mail address or phone number.`),
    ),
    ["contact"],
  ),
);
type FeedbackValues = v.InferInput<typeof feedbackSchema>;
const FEEDBACK_FIELDS = [
  "liked",
  "confusing",
  "featuresWanted",
  "rating",
  "wantsInterview",
  "contact",
] as const;

type Stage = "setup" | "activation" | "subscription" | "thanks";

/**
 * What follows a launch: non-subscribers first see 'Complete Your Campaign Setup', with the activation
 * fee's amount: pay it now, take the subscription instead (named as such, with its own price), or
 * Later; then everyone who gets here sees 'Thank You for Your Interest!' with the optional feedback
 * form; closing it goes to the dashboard.
 */
export function AfterLaunchDialogs({
  campaignId,
  campaignTitle,
}: {
  campaignId: number;
  campaignTitle: string;
}) {
  const { t } = useLingui();
  const [stage, setStage] = useState<Stage>("setup");
  return (
    <>
      <Modal
        open={stage === "setup"}
        onClose={() => setStage("thanks")}
        title={<Trans>Complete Your Campaign Setup</Trans>}
        description={
          <Trans>
            Your campaign has been created and is pending. Pay the activation fee to make it public and start
            receiving pledges, or do it later from your dashboard.
          </Trans>
        }
      >
        <div className="mt-4">
          <FeeSummary purpose="campaign_activation" campaignTitle={campaignTitle} />
        </div>
        <SubscriptionOffer onChoose={() => setStage("subscription")} />
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonSecondary} onClick={() => setStage("thanks")}>
            <Trans>Later</Trans>
          </button>
          <button type="button" className={buttonPrimary} onClick={() => setStage("activation")}>
            <Trans>Pay activation fee</Trans>
          </button>
        </div>
      </Modal>
      {stage === "activation" && (
        <Suspense fallback={null}>
          <PaymentDialog
            open
            onOpenChange={() => undefined}
            purpose="campaign_activation"
            campaignId={campaignId}
            campaignTitle={campaignTitle}
            title={t`Activate your campaign`}
            description={t`Pay the activation fee by M-Pesa or card to make your campaign public.`}
            onSettled={() => setStage("thanks")}
          />
        </Suspense>
      )}
      {stage === "subscription" && (
        <Suspense fallback={null}>
          <PaymentDialog
            open
            onOpenChange={() => undefined}
            purpose="subscription"
            title={t`Subscription`}
            description={t`Pay the subscription by M-Pesa or card.`}
            onSettled={() => setStage("thanks")}
          />
        </Suspense>
      )}
      <ThankYouDialog open={stage === "thanks"} campaignId={campaignId} />
    </>
  );
}

/** The other choice: the subscription, by its name and price (not to be mistaken for the fee). */
function SubscriptionOffer({ onChoose }: { onChoose(): void }) {
  const fees = useFees();
  if (!fees.data) return null;
  const amount = formatKsh(fees.data.subscription_fee);
  const days = fees.data.subscription_period_days;
  return (
    <div className="text-sm text-slate-700">
      <p>
        <Plural
          value={days}
          one={`Or the subscription instead: ${amount} for # day, with Grantfunding AI, and your next campaigns start active without the activation fee.`}
          other={`Or the subscription instead: ${amount} for # days, with Grantfunding AI, and your next campaigns start active without the activation fee.`}
        />
      </p>
      <button type="button" className={`${buttonSecondary} mt-2`} onClick={onChoose}>
        <Trans>Pay for the subscription</Trans>
      </button>
    </div>
  );
}

function Modal({
  open,
  onClose,
  title,
  description,
  children,
}: {
  open: boolean;
  onClose(): void;
  title: ReactNode;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => next || onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content className="fixed inset-x-0 bottom-0 z-50 max-h-[95vh] overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl sm:top-1/2 sm:left-1/2 sm:bottom-auto sm:w-full sm:max-w-lg sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:p-6">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-600">{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ThankYouDialog({ open, campaignId }: { open: boolean; campaignId: number }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const form = useSchemaForm<FeedbackValues>(feedbackSchema, {
    liked: "",
    confusing: "",
    featuresWanted: "",
    rating: "3",
    wantsInterview: false,
    contact: "",
  });
  const { errors } = form.formState;
  const wantsInterview = form.watch("wantsInterview");
  const close = () => navigate("/dashboard");

  const send = useMutation({
    mutationFn: async (values: FeedbackValues) =>
      await sendWizardFeedback(
        {
          campaign_id: campaignId,
          liked: values.liked,
          confusing: values.confusing,
          features_wanted: values.featuresWanted,
          rating: Number(values.rating),
          wants_interview: values.wantsInterview,
          contact: values.wantsInterview ? values.contact.trim() : "",
        },
        t`Failed to submit feedback.`,
      ),
    onSuccess: () => {
      toast({ title: t`Thank you for your feedback!` });
      close();
    },
    onError: (error) => {
      if (!showFieldErrors(error, form, FEEDBACK_FIELDS)) {
        toast({
          title: t`Error`,
          description: errorMessage(error, t`Failed to submit feedback.`),
          variant: "destructive",
        });
      }
    },
  });

  return (
    <Modal
      open={open}
      onClose={close}
      title={<Trans>Thank You for Your Interest!</Trans>}
      description={<Trans>Tell us about your experience. Everything here is optional.</Trans>}
    >
      <form
        noValidate
        className="mt-4 space-y-4"
        onSubmit={form.handleSubmit((values) => send.mutate(values))}
      >
        <TextAreaField
          label={t`What did you like?`}
          rows={2}
          error={errors.liked?.message}
          {...form.register("liked")}
        />
        <TextAreaField
          label={t`What was confusing?`}
          rows={2}
          error={errors.confusing?.message}
          {...form.register("confusing")}
        />
        <TextAreaField
          label={t`What other features would you like?`}
          rows={2}
          error={errors.featuresWanted?.message}
          {...form.register("featuresWanted")}
        />
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">
            <Trans>How would you rate your experience? (1 = poor, 5 = excellent)</Trans>
          </legend>
          <div className="flex gap-2">
            {RATINGS.map((rating) => (
              <label
                key={rating}
                className="flex items-center gap-1 rounded-md border border-slate-300 px-3 py-2 has-checked:border-brand-700 has-checked:bg-brand-50"
              >
                <input
                  type="radio"
                  value={rating}
                  className="accent-brand-700"
                  {...form.register("rating")}
                />
                {rating}
              </label>
            ))}
          </div>
        </fieldset>
        <CheckboxField
          label={<Trans>I would be happy to take part in a short follow-up interview.</Trans>}
          {...form.register("wantsInterview")}
        />
        {wantsInterview && (
          <TextField
            label={t`Your e-mail or phone number`}
            autoComplete="email"
            error={errors.contact?.message}
            {...form.register("contact")}
          />
        )}
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <button type="button" className={buttonSecondary} onClick={close}>
            <Trans>Close</Trans>
          </button>
          <button type="submit" className={buttonPrimary} disabled={send.isPending}>
            {send.isPending ? <Trans>Sending...</Trans> : <Trans>Send Feedback</Trans>}
          </button>
        </div>
      </form>
    </Modal>
  );
}
