import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import type { Path } from "react-hook-form";
import { Link } from "wouter";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { CheckboxField } from "@/components/FieldControls";
import type { PaymentInstruction } from "@/components/PaymentInstructionCard";
import { TextField } from "@/components/TextField";
import type { Campaign } from "@/features/campaigns/api";
import type { Payment, PaymentStatus } from "@/features/payments/api";
import { ApiRequestError, errorMessage } from "@/lib/api/client";
import { showFieldErrors, useSchemaForm } from "@/lib/forms";
import { isAirtelNumber } from "@/lib/mobileNetworks";
import { formatKsh } from "@/lib/money";
import { useSessionReady } from "@/lib/session";
import { useAttemptKey } from "@/lib/useAttemptKey";
import { createDonation } from "./api";
import { DONATION_PRESETS, type DonationValues, donationSchema, parseWholeKes } from "./rules";

// Needed only once the donor presses Donate.
const DonationPaymentDialog = lazy(() => import("./DonationPaymentDialog"));

const FIELDS = ["amount", "name", "email", "phone"] as const;
const EMPTY: DonationValues = {
  amount: "",
  name: "",
  email: "",
  phone: "",
  isAnonymous: false,
  method: "mpesa",
};

/** Where the last payment ended up once its dialog closed. */
type Settled = { payment: Payment; status: PaymentStatus };

/** A preset or own amount, the donor's details and the way to pay; then the payment in a dialog. */
export default function DonationForm({ campaign }: { campaign: Campaign | undefined }) {
  const { t } = useLingui();
  const sessionReady = useSessionReady();
  const attemptKey = useAttemptKey();
  const form = useSchemaForm(donationSchema, EMPTY);
  const { errors } = form.formState;
  const [open, setOpen] = useState<Payment | null>(null);
  // Where the campaign's accounts take no PIN prompts: how to pay, with the payment's reference.
  const [instructions, setInstructions] = useState<PaymentInstruction[]>([]);
  const [settled, setSettled] = useState<Settled | null>(null);
  const amount = parseWholeKes(form.watch("amount"));
  const methods: ["mpesa" | "airtel" | "card", string][] = [
    ["mpesa", t`M-Pesa`],
    ...(campaign?.offers_airtel_push ? [["airtel", t`Airtel Money`] as ["airtel", string]] : []),
    ...(campaign?.offers_card_payment ? [["card", t`Card`] as ["card", string]] : []),
  ];
  // The payer's number chooses the default: Airtel Money for an Airtel prefix, until they choose.
  const [methodChosen, setMethodChosen] = useState(false);
  const preferByNumber = (phone: string) => {
    if (methodChosen || !campaign?.offers_airtel_push || form.getValues("method") === "card") return;
    form.setValue("method", isAirtelNumber(phone) ? "airtel" : "mpesa");
  };
  const anonymous = form.watch("isAnonymous");

  const donate = useMutation({
    mutationFn: async ({ values, campaignId }: { values: DonationValues; campaignId: number }) => {
      await sessionReady();
      return await createDonation({
        campaign_id: campaignId,
        amount: parseWholeKes(values.amount),
        name: values.name,
        email: values.email,
        phone: values.phone,
        is_anonymous: values.isAnonymous,
        method: values.method,
        idempotency_key: attemptKey.take(),
        return_path: `/campaign/${campaignId}/donate`,
      });
    },
    onSuccess: ({ payment, payment_instructions }) => {
      attemptKey.settle();
      setSettled(null);
      setInstructions(payment_instructions);
      setOpen(payment);
    },
    onError: (error) => {
      attemptKey.settle(error);
      showFieldErrors(error, form, FIELDS);
    },
  });
  const failure =
    donate.error &&
    !FIELDS.some((field) => donate.error instanceof ApiRequestError && donate.error.fieldErrors[field])
      ? errorMessage(donate.error)
      : null;

  // A rule that depends on another field is checked again when that field changes, once it showed.
  const recheck = (fields: Path<DonationValues>[]) => () => {
    for (const field of fields) {
      const state = form.getFieldState(field);
      if (state.isDirty || state.invalid) void form.trigger(field);
    }
  };

  const submit = form.handleSubmit((values) => {
    if (campaign) donate.mutate({ values, campaignId: campaign.id });
  });

  if (settled?.status === "succeeded") {
    return (
      <div className="mt-6 text-center" role="status">
        <p className="text-lg font-semibold text-slate-900">
          <Trans>Thank you for your donation of {formatKsh(settled.payment.amount)}!</Trans>
        </p>
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-center">
          {campaign && (
            <Link href={`/campaign/${campaign.id}`} className={`${primaryButton} sm:w-auto`}>
              <Trans>Back to the campaign</Trans>
            </Link>
          )}
          <button type="button" onClick={() => setSettled(null)} className={outlineButton}>
            <Trans>Give again</Trans>
          </button>
        </div>
      </div>
    );
  }

  // Sent before the app runs (the server renders this page), it posts, which the server refuses,
  // rather than putting the donor's details into a URL.
  return (
    <form method="post" noValidate onSubmit={submit} className="mt-4 space-y-5">
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">
          <Trans>Choose an amount</Trans>
        </legend>
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-5 lg:grid-cols-3">
          {DONATION_PRESETS.map((preset) => (
            <button
              key={preset}
              type="button"
              aria-pressed={amount === preset}
              onClick={() =>
                form.setValue("amount", String(preset), { shouldValidate: true, shouldDirty: true })
              }
              className="rounded-md border border-slate-300 px-2 py-2.5 font-semibold text-slate-800 hover:border-brand-600 aria-pressed:border-brand-700 aria-pressed:bg-brand-700 aria-pressed:text-white"
            >
              {formatKsh(preset)}
            </button>
          ))}
        </div>
      </fieldset>
      <TextField
        label={t`Amount (Ksh)`}
        inputMode="numeric"
        autoComplete="off"
        hint={<Trans>Or type any other amount.</Trans>}
        error={errors.amount?.message}
        {...form.register("amount")}
      />

      {/* Cards only where the organization set up a bank account for them, Airtel Money where it has an
          Airtel Money account; otherwise M-Pesa alone. */}
      {(campaign?.offers_card_payment || campaign?.offers_airtel_push) && (
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">
            <Trans>Pay with</Trans>
          </legend>
          <div className={`grid gap-2 ${methods.length > 2 ? "grid-cols-3" : "grid-cols-2"}`}>
            {methods.map(([value, label]) => (
              <label
                key={value}
                className="flex cursor-pointer items-center justify-center rounded-md border border-slate-300 px-3 py-2.5 font-medium text-slate-700 has-checked:border-brand-700 has-checked:bg-brand-50 has-checked:text-brand-800 has-focus-visible:outline-3 has-focus-visible:outline-accent-500"
              >
                <input
                  type="radio"
                  value={value}
                  className="sr-only"
                  {...form.register("method", {
                    onChange: () => {
                      setMethodChosen(true);
                      recheck(["phone", "email"])();
                    },
                  })}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <TextField
        label={anonymous ? t`Full name (optional)` : t`Full name`}
        autoComplete="name"
        error={errors.name?.message}
        {...form.register("name")}
      />
      <TextField
        label={anonymous ? t`Email (optional)` : t`Email`}
        type="email"
        autoComplete="email"
        hint={<Trans>We send your receipt here.</Trans>}
        error={errors.email?.message}
        {...form.register("email")}
      />
      <TextField
        label={t`Phone number`}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        placeholder="0712 345 678"
        hint={
          form.watch("method") === "airtel" ? (
            <Trans>Needed for Airtel Money: the prompt for your PIN comes to this phone.</Trans>
          ) : (
            <Trans>Needed for M-Pesa: the prompt for your PIN comes to this phone.</Trans>
          )
        }
        error={errors.phone?.message}
        {...form.register("phone", { onChange: (event) => preferByNumber(String(event.target.value)) })}
      />
      <CheckboxField
        className="rounded-md bg-slate-50 p-3"
        label={<Trans>Donate anonymously</Trans>}
        note={
          <Trans>Others see 'Anonymous' instead of your name. The organizer still sees your details.</Trans>
        }
        {...form.register("isAnonymous", { onChange: recheck(["name", "email"]) })}
      />

      {settled?.status === "pending" && (
        <div role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          <p>
            <Trans>
              Your payment of {formatKsh(settled.payment.amount)} is still being tracked: it counts as soon as
              it is confirmed.
            </Trans>
          </p>
          <button type="button" onClick={() => setOpen(settled.payment)} className={`${outlineButton} mt-2`}>
            <Trans>Check again</Trans>
          </button>
        </div>
      )}
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {failure}
        </p>
      )}
      <button type="submit" disabled={donate.isPending || !campaign} className={primaryButton}>
        {donate.isPending ? (
          <Trans>Starting your payment...</Trans>
        ) : amount ? (
          <Trans>Donate {formatKsh(amount)}</Trans>
        ) : (
          <Trans>Donate</Trans>
        )}
      </button>

      {open && campaign && (
        <Suspense fallback={null}>
          <DonationPaymentDialog
            started={open}
            instructions={instructions}
            campaignId={campaign.id}
            onClose={(status) => {
              setOpen(null);
              setSettled({ payment: open, status });
            }}
          />
        </Suspense>
      )}
    </form>
  );
}
