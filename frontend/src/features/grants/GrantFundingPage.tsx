import { Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { primaryButton, secondaryButton } from "@/components/buttonStyles";
import { PageLoadError } from "@/components/PageLoadError";
import { PageSkeleton } from "@/components/PageSkeleton";
import { useFees, useHasPaid } from "@/features/payments/api";
import { errorMessage } from "@/lib/api/client";
import { formatKsh } from "@/lib/money";

import { useOrganizationProfile } from "./api";
import { GrantSearch } from "./GrantSearch";
import { Questionnaire } from "./Questionnaire";

const PaymentDialog = lazy(() => import("@/features/payments/PaymentDialog"));

// Spec section 4: how long 'Payment not yet confirmed' stays up.
const UNCONFIRMED_MESSAGE_MS = 5_000;

/** /grantfunding: the organization questionnaire, then the payment check, then the grant search. */
export default function GrantFundingPage() {
  const profile = useOrganizationProfile();
  const [editing, setEditing] = useState(false);

  let content: ReactNode;
  if (profile.isPending) {
    content = <PageSkeleton />;
  } else if (profile.isError) {
    content = <PageLoadError message={errorMessage(profile.error)} retry={() => void profile.refetch()} />;
  } else if (profile.data === null || editing) {
    content = (
      <Questionnaire
        profile={profile.data}
        onDone={() => setEditing(false)}
        onCancel={profile.data ? () => setEditing(false) : undefined}
      />
    );
  } else {
    content = <PaymentCheck onEditProfile={() => setEditing(true)} />;
  }
  return <AppLayout>{content}</AppLayout>;
}

/** Subscribers go on to the search; everyone else is asked to subscribe (spec sections 2 and 4). */
function PaymentCheck({ onEditProfile }: { onEditProfile(): void }) {
  const { t } = useLingui();
  const hasPaid = useHasPaid();
  const [paying, setPaying] = useState(false);
  const [checking, setChecking] = useState(false);
  const [notice, setNotice] = useState<"unconfirmed" | "failed" | null>(null);

  useEffect(() => {
    if (notice !== "unconfirmed") return;
    const timer = setTimeout(() => setNotice(null), UNCONFIRMED_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  // After the payment window closes, ask the server again whatever the window said.
  async function recheck() {
    setChecking(true);
    setNotice(null);
    const result = await hasPaid.refetch();
    setChecking(false);
    if (result.isError) setNotice("failed");
    else if (!result.data?.has_paid) setNotice("unconfirmed");
  }

  // Stays open over the search once the payment succeeds, so that the user sees its outcome.
  const paymentDialog = paying && (
    <Suspense fallback={null}>
      <PaymentDialog
        open
        onOpenChange={(open) => setPaying(open)}
        purpose="subscription"
        title={t`Subscribe to Grantfunding AI`}
        description={t`Pay by M-Pesa or card to unlock grant search and matching.`}
        onSettled={() => void recheck()}
      />
    </Suspense>
  );

  if (hasPaid.data === undefined && hasPaid.isError) {
    return (
      <PageLoadError
        message={<Trans>Error checking payment. Please try again.</Trans>}
        retry={() => void hasPaid.refetch()}
      />
    );
  }
  if (hasPaid.data === undefined) return <PageSkeleton />;

  // The dialog keeps its place in the tree when the search replaces the invitation behind it.
  return (
    <>
      {hasPaid.data.has_paid ? (
        <GrantSearch onEditProfile={onEditProfile} />
      ) : (
        <div className="mx-auto w-full max-w-2xl px-4 py-8">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
            <Trans>Grantfunding AI</Trans>
          </h1>
          <p className="mt-2 text-slate-600">
            <Trans>
              Your organization profile is ready. Subscribe to search grants ranked by how well they fit you.
            </Trans>
          </p>
          <CompleteRegistrationDialog
            open={!paying}
            checking={checking}
            notice={notice}
            onStart={() => {
              setNotice(null);
              setPaying(true);
            }}
            onEditProfile={onEditProfile}
          />
        </div>
      )}
      {paymentDialog}
    </>
  );
}

/** The grant gate's sentence: the spec's "No immediate charge will be made" is untrue once the PIN
 * prompt arrives, so it states the price and the period instead (docs/reference/payments.md, Fees in plain sight). */
function SubscriptionPrice() {
  const fees = useFees();
  if (!fees.data) return <Trans>To unlock Grantfunding AI, please complete your payment.</Trans>;
  const amount = formatKsh(fees.data.subscription_fee);
  const days = fees.data.subscription_period_days;
  return (
    <Trans>
      To unlock Grantfunding AI, subscribe for {amount} for {days} days. You are charged only when you approve
      the M-Pesa PIN prompt or the card payment.
    </Trans>
  );
}

function CompleteRegistrationDialog({
  open,
  checking,
  notice,
  onStart,
  onEditProfile,
}: {
  open: boolean;
  checking: boolean;
  notice: "unconfirmed" | "failed" | null;
  onStart(): void;
  onEditProfile(): void;
}) {
  const [, navigate] = useLocation();
  const later = () => navigate("/dashboard");
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && later()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content className="fixed inset-x-0 bottom-0 z-50 rounded-t-2xl bg-white p-6 shadow-xl sm:top-1/2 sm:left-1/2 sm:bottom-auto sm:w-full sm:max-w-md sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">
            <Trans>Complete Registration</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-slate-700">
            <SubscriptionPrice />
          </Dialog.Description>
          {checking && (
            <p role="status" className="mt-4 text-sm text-slate-600">
              <Trans>Checking your payment...</Trans>
            </p>
          )}
          {notice && (
            <p role="alert" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
              {notice === "unconfirmed" ? (
                <Trans>Payment not yet confirmed. Please wait a moment and try again shortly.</Trans>
              ) : (
                <Trans>Error checking payment. Please try again.</Trans>
              )}
            </p>
          )}
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button type="button" className={`${secondaryButton} sm:w-auto`} onClick={later}>
              <Trans>Later</Trans>
            </button>
            <button
              type="button"
              className={`${primaryButton} sm:w-auto`}
              disabled={checking}
              onClick={onStart}
            >
              <Trans>Start Subscription</Trans>
            </button>
          </div>
          <button
            type="button"
            onClick={onEditProfile}
            className="mt-4 text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            <Trans>Edit organization profile</Trans>
          </button>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
